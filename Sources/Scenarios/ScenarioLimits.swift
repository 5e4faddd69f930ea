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
}
