/// The exit codes of `vietmap-sim`, listed in `vietmap-sim --help` and docs/cli.md.
enum ExitStatus {
    /// Done; for `contract`, every contract held; for `scenarios validate`, every file loads.
    static let success: Int32 = 0
    /// The work failed: an unreadable or damaged input, a port in use, contract failures,
    /// scenario files that do not load, a dataset damaged while serving.
    static let failure: Int32 = 1
    /// A usage error (EX_USAGE of sysexits.h): nothing was done.
    static let usage: Int32 = 64
    /// `import` stopped by SIGINT (128 + 2) or SIGTERM (128 + 15), its temporary file removed.
    static let interrupted: (sigint: Int32, sigterm: Int32) = (130, 143)

    /// The EXIT STATUS section of the main help.
    static let help = """
        EXIT STATUS:
          0    done (contract: every contract held; scenarios validate: every file loads)
          1    the work failed: one line on stderr (an unreadable or damaged input, a port in use,
               contract failures, scenario files that do not load, no route for drive, …)
          64   usage error: one line on stderr naming the command or option; nothing was done
          130, 143  import stopped by SIGINT or SIGTERM (its temporary file removed)
        """
}
