extension Usage {
    static let drive = """
        USAGE: vietmap-sim drive --from LAT,LNG --to LAT,LNG [--via LAT,LNG]… [--vehicle car|motorcycle|truck|container|bike|foot]
                                 [--format gpx|nmea|kml] [--out FILE] [--db PATH] [--rate HZ] [--speed-factor F]
                                 [--noise METRES] [--seed N] [--stop AT:DURATION]… [--detour METRES@AT]… [--gap AT:DURATION]…
                                 [--start YYYY-MM-DDTHH:MM:SSZ]

        Writes the GPS trace of a drive along the route route v4 answers (the same router, in-process)
        for replaying on a device: GPX for Xcode's simulated location and the Android emulator, NMEA
        for the emulator's `geo nmea`, KML. The fixes follow the router's own times, so the trace lasts
        the route's time (divided by --speed-factor) plus stops and detours. Same options, same bytes.
        Times AT are seconds on the trace's clock (0 = first fix). A trace has at most 1,000,000 fixes
        (counted before any is made; ≈ 180 MB of GPX) and is written out as it is made. See docs/drive.md.

        OPTIONS:
          --from, --to LAT,LNG  start and destination; --via LAT,LNG adds a stop on the way (repeatable, up to 1000 times)
          --vehicle NAME   route v4's vehicle (default car)
          --format F       gpx (default; or from --out's extension .gpx/.nmea/.kml), nmea, kml
          --out FILE       write there (temporary file + rename); default stdout
          --db PATH        dataset built by `vietmap-sim import` (default: the embedded one)
          --rate HZ        fixes per second (default 1)
          --speed-factor F drive F times as fast as the router's speeds (default 1)
          --noise METRES   Gaussian GPS noise, standard deviation north and east (default 0)
          --seed N         seed of the noise (default 1)
          --stop AT:D      stand still (speed 0) for D seconds from AT (repeatable, up to 1000 times)
          --detour M@AT    at AT leave the route at a right angle for M metres and come back (repeatable, up to 1000 times)
          --gap AT:D       no fixes for D seconds from AT, the vehicle moving on (repeatable, up to 1000 times)
          --start TIME     UTC time of the first fix (default \(DriveOptions.defaultStart))
          -h, --help       show this help
        """
}
