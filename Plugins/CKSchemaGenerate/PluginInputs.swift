import Foundation

/// The schema files under a folder, walked by the rules of ckschema's one folder walk
/// (`FolderWalk`, Sources/CKSchemaDiagnostics/FolderWalk.swift): each real folder is searched
/// once (a link back up is not followed again), never out of the folder given (a link that
/// leads outside it is not followed), with a bound on entries and depth, iteratively. A plugin
/// cannot import the package's targets, so each plugin holds this same file;
/// `FolderWalkTests.thePluginsWalkByTheSameRules` checks the copies are the same and runs it on a folder that loops.
/// A folder it cannot read is left out here: the `ckschema` run the plugin starts reads the
/// same folder and reports it (CK001).
enum PluginInputs {
    /// The files the plugins watch: YAML schemas and `.ckdb` files.
    static let extensions: Set<String> = ["yaml", "yml", "ckdb"]
    static let maxEntries = 200_000
    static let maxDepth = 64

    /// The schema files under `folder`, sorted by path.
    static func files(under folder: URL) -> [URL] {
        let fm = FileManager.default
        let root = folder.path
        guard let top = realPath(root) else { return [] }
        let inside = top == "/" ? "/" : top + "/"
        var seen: Set<String> = [top]
        var queue: [(path: String, real: String, depth: Int)] = [(root, top, 0)]
        var next = 0, entries = 0
        var out: [String] = []
        while next < queue.count {
            let (dir, real, depth) = queue[next]
            next += 1
            guard let names = try? fm.contentsOfDirectory(atPath: dir) else { continue }
            entries += names.count
            if entries > maxEntries { break }
            for name in names.sorted() {
                let path = join(dir, name)
                var isDir: ObjCBool = false
                guard fm.fileExists(atPath: path, isDirectory: &isDir) else { continue }
                if !isDir.boolValue {
                    if extensions.contains((name as NSString).pathExtension.lowercased()) { out.append(path) }
                    continue
                }
                let link = (try? fm.destinationOfSymbolicLink(atPath: path)) != nil
                guard let target = link ? realPath(path) : join(real, name) else { continue }
                guard target == top || target.hasPrefix(inside), !seen.contains(target), depth < maxDepth else { continue }
                seen.insert(target)
                queue.append((path, target, depth + 1))
            }
        }
        return out.sorted().map { URL(fileURLWithPath: $0) }
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    static func realPath(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }
}
