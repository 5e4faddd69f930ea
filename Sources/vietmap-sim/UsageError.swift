/// A mistake in how the command was called — an unknown command or option, a missing or malformed
/// value, a combination that makes no sense: one line on stderr naming the option, exit code 64
/// (``ExitStatus/usage``, EX_USAGE of sysexits.h). Nothing has been done when it is thrown.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
