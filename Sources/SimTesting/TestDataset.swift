import Dataset
import DefaultData
import Foundation

/// The default dataset for tests: built once per machine (by the product's own cache logic)
/// into `$TMPDIR/vietmap-sim-test-cache`, then shared by every test target and run.
public enum TestDataset {
    public static var cacheDirectory: URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("vietmap-sim-test-cache")
    }

    /// Path of the default dataset, building it on first use.
    public static func path() throws -> String {
        try DatasetCache.ensureDefault(inputs: DefaultData.inputFiles, cacheDirectory: cacheDirectory).path
    }
}
