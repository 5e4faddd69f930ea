extension Usage {
    /// The capture/replay options of `serve` (docs/capture.md).
    static let serveCaptureOptions = """
          --upstream URL|live
                           forward every endpoint (maps too) to another backend (a base URL, or `live` =
                           https://maps.vietmap.vn) instead of computing answers; scenarios still apply.
                           The client's key is checked here and never forwarded
          --upstream-key KEY
                           key sent upstream (else $VIETMAP_API_KEY; required for `live`); never
                           logged, journalled or recorded
          --upstream-timeout S
                           one deadline for the whole upstream exchange, head and body (1–300 s,
                           default 10); then 504. Redirects are passed on, never followed
          --upstream-max-body BYTES
                           most body bytes taken from the upstream, after gzip (default 67108864 =
                           64 MiB); past it a 502, nothing recorded. Statuses outside 100–599: 502
          --record DIR     with --upstream: write every upstream exchange to DIR, one file each
          --replay DIR     answer from the recordings in DIR (identical requests in recorded order);
                           an unrecorded request is a 404 naming the nearest recording
          --replay-timing  with --replay: wait each recording's upstream latency before answering
          --fallback simulator
                           answer from the simulator when the upstream fails (unreachable, too slow,
                           past a limit, 5xx) or nothing is recorded; says so in X-VietMap-Sim-Fallback and the journal
        """
}
