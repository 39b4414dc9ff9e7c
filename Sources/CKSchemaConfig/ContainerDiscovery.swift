import Foundation
import CKSchemaDiagnostics

/// Where `init --from-production` finds the app's container when `--container` is not given
/// (issue 32 point 3: it never invents one): an existing ckschema.yaml's `container:`, else the
/// app's `.entitlements`, whose `com.apple.developer.icloud-container-identifiers` array lists
/// the containers the app uses.
/// Source: Apple, "iCloud Container Identifiers" entitlement
/// (https://developer.apple.com/documentation/bundleresources/entitlements/com.apple.developer.icloud-container-identifiers).
public enum ContainerDiscovery {
    /// The entitlement key that lists an app's iCloud containers.
    public static let entitlementKey = "com.apple.developer.icloud-container-identifiers"

    /// A container found, and the file it was found in.
    public struct Found: Sendable, Hashable {
        public var container: String
        public var source: String
    }

    /// What the search found in `root`: one container (`found`), or the files that name
    /// different ones (`ambiguous`, each with its containers), or nothing.
    public struct Result: Sendable {
        public var found: Found?
        public var ambiguous: [(source: String, containers: [String])] = []
    }

    /// At most this many directory entries are looked at, and this deep: a large or looping
    /// tree costs a bounded amount.
    static let entryBudget = 20_000
    static let depthLimit = 6
    /// Folders never searched: build output, dependencies, version control.
    static let skipped: Set<String> = [".git", ".build", ".swiftpm", "DerivedData", "Pods", "Carthage", "node_modules", ".ckschema"]

    /// ckschema.yaml in `root` first, then every `.entitlements` file under it.
    public static func search(root: String) throws(InputError) -> Result {
        let config = (root as NSString).appendingPathComponent(Configuration.fileName)
        if FileManager.default.fileExists(atPath: config), let c = try Configuration.load(path: config).container {
            return Result(found: Found(container: c, source: config))
        }
        var named: [(source: String, containers: [String])] = []
        for path in entitlementFiles(root: root) {
            // The same bounded reader the scan's entitlement checks use (untrusted input).
            guard let data = try? InputFile.read(path: path, limit: PropertyList.maxBytes),
                  case .success(let plist) = PropertyList.parse(data),
                  let list = plist.entry(entitlementKey)?.value.strings else { continue }
            let containers = list.filter { !$0.isEmpty }
            if !containers.isEmpty { named.append((path, containers)) }
        }
        let distinct = Set(named.flatMap(\.containers))
        if distinct.count == 1, let first = named.first {
            return Result(found: Found(container: first.containers[0], source: first.source))
        }
        return Result(found: nil, ambiguous: distinct.isEmpty ? [] : named)
    }

    /// The `.entitlements` files under `root`, sorted, within the budget: the one folder walk
    /// (`FolderWalk`), best effort (a folder it cannot read or the budget ends the search there).
    static func entitlementFiles(root: String) -> [String] {
        let options = FolderWalk.Options(skipFolder: { skipped.contains($0) }, includeFile: { $0.hasSuffix(".entitlements") },
                                         maxDepth: depthLimit, maxEntries: entryBudget, bestEffort: true)
        return FolderWalk.walk(root, options: options).files
    }
}
