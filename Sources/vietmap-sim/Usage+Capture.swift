extension Usage {
    /// The capture/replay options of `serve` (docs/capture.md).
    static let serveCaptureOptions = """
          --upstream URL|live
                           forward the three endpoints to another backend (a base URL, or `live` =
                           https://maps.vietmap.vn) instead of computing answers; scenarios still apply.
                           The client's key is checked here and never forwarded
          --upstream-key KEY
                           key sent upstream (else $VIETMAP_API_KEY; required for `live`); never
                           logged, journalled or recorded
          --upstream-timeout S
                           seconds to wait for the upstream (1–300, default 10); then 504
          --record DIR     with --upstream: write every upstream exchange to DIR, one file each
          --replay DIR     answer from the recordings in DIR (identical requests in recorded order);
                           an unrecorded request is a 404 naming the nearest recording
          --replay-timing  with --replay: wait each recording's upstream latency before answering
          --fallback simulator
                           answer from the simulator when the upstream fails (unreachable, too slow,
                           5xx) or nothing is recorded; says so in X-VietMap-Sim-Fallback and the journal
        """
}
