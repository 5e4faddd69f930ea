import Foundation
import PackagePlugin

/// Embeds the files under a target's `Resources/` folder (symbolic links followed) in its code:
/// the `embed-resources` tool packs them, deflates the pack with zlib and writes it as a Swift
/// string literal (`EmbeddedArchive`), which `EmbeddedFiles.EmbeddedFolder` unpacks at run time.
/// Every file is an input of the build command, and the plugin lists them again at every build,
/// so an added, changed or removed file is embedded by the next build without registering it.
@main
struct EmbedResources: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        // `directoryURL` needs tools version 6.1; the package declares 6.0.
        let resources = URL(fileURLWithPath: String(describing: target.directory)).appending(path: "Resources")
        let files = Self.files(under: resources)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedArchive.swift")
        return [.buildCommand(displayName: "Embedding \(files.count) resource files of \(target.name)",
                              executable: try context.tool(named: "embed-resources").url,
                              arguments: [output.path, resources.path],
                              inputFiles: files, outputFiles: [output])]
    }

    /// Regular files below `folder`, symbolic links followed, hidden names skipped.
    static func files(under folder: URL) -> [URL] {
        let manager = FileManager.default
        var result: [URL] = []
        let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appending(path: name)
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { result += files(under: url) } else { result.append(url) }
        }
        return result
    }
}
