/// The bounds every scenario and every answer it shapes stay within, so that no file that
/// `validate` accepts can make one request exhaust memory or stall the server.
///
/// `validate` and the loader refuse files beyond the static limits; the engine refuses at run
/// time any mutation whose result would pass `ScenarioEngine.Configuration.answerSizeLimit`
/// (a 500 in the endpoint's envelope naming the rule). See `Scenarios/README.md`, "Limits".
public enum ScenarioLimits {
    /// The largest scenario file loaded (128 MiB; a 100,000-rule replay scenario is ~60 MiB).
    public static let fileBytes = 128 * 1024 * 1024
    /// The largest literal body (`respond.json` serialized, `text`, decoded `base64`) or patch `value`.
    public static let literalBodyBytes = 8 * 1024 * 1024
    /// The most operations in one `patch`.
    public static let patchOperations = 64
    /// The most one patch may multiply an answer's size by, in the worst case (see `PatchGrowth`).
    public static let patchGrowthFactor = 64.0
    /// The default largest answer a mutation may produce (`answerSizeLimit`).
    public static let answerBytes = 32 * 1024 * 1024
    /// The most headers one `respond` may set or remove.
    public static let headerCount = 100
    /// The most bytes of header names and values one `respond` may set (`Name: value\r\n` counted).
    public static let headerBytes = 16 * 1024
    /// The most instructions one `regex` may compile to (`{m,n}` copies its operand): with
    /// `regexStepsPerRequest`, every pattern `validate` admits can test a value of
    /// `regexTextCharacters` characters.
    public static let regexInstructions = 2_000
    /// The longest value every admitted pattern can be tested against within the budget.
    public static let regexTextCharacters = 1_000
    /// The regex work one request may cause, in Pike VM steps: each test of a pattern against a
    /// value costs its instructions × the value's characters, summed over every `regex` condition
    /// the request's candidate rules test. A test that would pass what is left is not run: its
    /// condition does not hold (so the rule does not match), and the journal's `note` says why.
    public static let regexStepsPerRequest = regexInstructions * regexTextCharacters
}
