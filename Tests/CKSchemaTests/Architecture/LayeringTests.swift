import Foundation
import Testing

/// The library's layers are SwiftPM targets (docs/architecture.md): the compiler refuses a
/// use of a module the target does not depend on. What this suite holds is the picture
/// itself: Package.swift's graph is the one the document draws, and no file imports a module
/// outside its target's dependencies (SwiftPM puts every built module on one search path, so
/// such an import could compile on an incremental build even though a clean one refuses it).
@Suite struct LayeringTests {
    /// A target and the targets it depends on, as written.
    typealias Graph = [String: [String]]

    /// The library targets of Package.swift (`.target(name: "X", dependencies: [...])`).
    static func packageGraph(_ manifest: String) -> Graph {
        var out: Graph = [:]
        let pattern = #/\.target\(name:\s*"(\w+)",\s*dependencies:\s*\[([^\]]*)\]/#
        for m in manifest.matches(of: pattern) {
            out[String(m.1)] = names(m.2)
        }
        return out
    }

    /// The graph docs/architecture.md lists between its `<!-- targets -->` markers.
    static func documentedGraph(_ doc: String) -> Graph {
        guard let start = doc.range(of: "<!-- targets -->"), let end = doc.range(of: "<!-- /targets -->") else { return [:] }
        var out: Graph = [:]
        for line in doc[start.upperBound..<end.lowerBound].split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("```") else { continue }
            out[String(line[..<colon])] = names(line[line.index(after: colon)...])
        }
        return out
    }

    static func names(_ s: Substring) -> [String] {
        s.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \"\n")) }.filter { !$0.isEmpty }
    }

    /// Every target a target may import: its dependencies and theirs.
    static func closure(_ graph: Graph, of target: String) -> Set<String> {
        var seen = Set<String>(), stack = graph[target] ?? []
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += graph[next] ?? [] }
        }
        return seen
    }

    /// The modules a file imports (`import X`, `@_exported import X`, `@testable import X`),
    /// read from the start of each line: the exact statement, not a guess at what it uses.
    static func imports(_ text: String) -> [String] {
        text.split(separator: "\n").compactMap { line -> String? in
            var words = line.split(separator: " ")
            while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first) {
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return String(words[1].split(separator: ".")[0])
        }
    }

    /// Modules from outside the package that any layer may import.
    static let system: Set<String> = ["Foundation", "FoundationEssentials", "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "WinSDK"]

    /// Each import of a library file against the graph: "CKSchemaYAML/X.swift imports CKSchemaCKDB".
    static func violations(_ graph: Graph, files: [(target: String, path: String, text: String)]) -> [String] {
        var out: [String] = []
        for f in files {
            let allowed = closure(graph, of: f.target).union(system)
            for module in imports(f.text) where !allowed.contains(module) {
                out.append("\(f.path) imports \(module), which \(f.target) does not depend on")
            }
        }
        return out
    }

    static func libraryFiles(_ graph: Graph) throws -> [(target: String, path: String, text: String)] {
        let base = Paths.root + "/Sources"
        var out: [(target: String, path: String, text: String)] = []
        for target in graph.keys.sorted() {
            let dir = base + "/" + target
            let paths = FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
            for p in paths { out.append((target, target + "/" + p, try read(dir + "/" + p))) }
        }
        return out
    }

    @Test func packageGraphIsTheDocumentedOne() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let documented = Self.documentedGraph(try read(Paths.root + "/docs/architecture.md"))
        #expect(package.count >= 15, "Package.swift's layer targets are read")
        #expect(package == documented, "Package.swift and docs/architecture.md's <!-- targets --> list differ")
    }

    @Test func everyLibraryFolderIsATarget() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let folders = try FileManager.default.contentsOfDirectory(atPath: Paths.root + "/Sources").filter { $0.hasPrefix("CKSchema") }
        #expect(Set(folders) == Set(package.keys), "every Sources/CKSchema* folder is a layer target, and every layer has its folder")
    }

    @Test func theGraphHasNoCycleAndOnlyCModulesBesideIt() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        for target in package.keys {
            #expect(!Self.closure(package, of: target).contains(target), "\(target) depends on itself")
            for dep in package[target] ?? [] {
                #expect(package[dep] != nil || dep.hasPrefix("C") && !dep.hasPrefix("CKSchema"), "\(target) depends on \(dep), which is not a layer")
            }
        }
    }

    @Test func filesImportOnlyWhatTheirTargetDependsOn() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let files = try Self.libraryFiles(package)
        #expect(files.count > 150, "the library's files are read")
        let violations = Self.violations(package, files: files)
        #expect(violations.isEmpty, "against the layering (docs/architecture.md):\n\(violations.joined(separator: "\n"))")
    }

    /// The checks themselves catch an import up, or across to a peer, and a graph that differs.
    @Test func theChecksCatchWhatTheyShould() {
        let graph: Graph = ["A": [], "B": ["A"], "C": ["A"], "D": ["B", "C"]]
        let files: [(target: String, path: String, text: String)] = [
            ("B", "B/x.swift", "import Foundation\nimport A\n@testable import C\n"),
            ("A", "A/y.swift", "// import D in a comment\npublic import D\n"),
            ("D", "D/z.swift", "@_exported import B\nimport A\n"),
        ]
        #expect(Self.violations(graph, files: files) == ["B/x.swift imports C, which B does not depend on", "A/y.swift imports D, which A does not depend on"])
        #expect(Self.packageGraph(#".target(name: "B", dependencies: ["A", "CZ"]),"#) == ["B": ["A", "CZ"]])
        #expect(Self.documentedGraph("<!-- targets -->\n```\nA:\nB: A, CZ\n```\n<!-- /targets -->") == ["A": [], "B": ["A", "CZ"]])
    }
}
