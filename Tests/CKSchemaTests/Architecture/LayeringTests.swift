import Foundation
import Testing

/// The library's layers are SwiftPM targets (docs/architecture.md), and the target graph is
/// the architecture: each target depends on exactly the modules its files import. This suite
/// holds the graph to three things: the document draws Package.swift's graph; every edge is
/// used (some file of the target imports it) and every import is an edge (SwiftPM puts every
/// built module on one search path, so an import outside the graph could compile on an
/// incremental build); and nothing below the umbrella `CKSchema` re-exports, so no file sees a
/// module it did not import (MemberImportVisibility makes that an error for members too).
@Suite struct LayeringTests {
    /// A target and the targets it depends on, as written.
    typealias Graph = [String: [String]]
    typealias SourceFile = (target: String, path: String, text: String)

    /// The one target that re-exports: the product users import.
    static let umbrella = "CKSchema"
    /// The longest chain of library targets allowed (issue 30: at most 10 floors).
    static let maximumDepth = 10

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

    /// Every target a target reaches: its dependencies and theirs.
    static func closure(_ graph: Graph, of target: String) -> Set<String> {
        var seen = Set<String>(), stack = graph[target] ?? []
        while let next = stack.popLast() {
            if seen.insert(next).inserted { stack += graph[next] ?? [] }
        }
        return seen
    }

    /// The number of library targets on the longest dependency chain from `target` down
    /// (C modules are not floors). Bounded by the graph's size, so a cycle cannot loop.
    static func depth(_ graph: Graph, of target: String, limit: Int? = nil) -> Int {
        let limit = limit ?? graph.count + 1
        guard limit > 0, let deps = graph[target] else { return 0 }
        return 1 + (deps.map { depth(graph, of: $0, limit: limit - 1) }.max() ?? 0)
    }

    /// The modules a file imports (`import X`, `@_exported import X`, `@testable import X`),
    /// read from the start of each line: the exact statement, not a guess at what it uses.
    static func imports(_ text: String) -> [(module: String, exported: Bool)] {
        text.split(separator: "\n").compactMap { line -> (String, Bool)? in
            var words = line.split(separator: " ")
            var exported = false
            while let first = words.first, first.hasPrefix("@") || ["public", "internal", "package", "private", "fileprivate"].contains(first) {
                if first == "@_exported" { exported = true }
                words.removeFirst()
            }
            guard words.count >= 2, words[0] == "import" else { return nil }
            return (String(words[1].split(separator: ".")[0]), exported)
        }
    }

    /// Modules from outside the package that any layer may import (CloudKit and CoreLocation:
    /// CKSchemaTesting's adapter, under `#if canImport(CloudKit)`, docs/testing.md; Swift, the
    /// standard library, imported by name for its Unicode SPI: the deleteSelf counter's keys).
    static let system: Set<String> = ["Foundation", "FoundationEssentials", "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin", "WinSDK",
                                      "CloudKit", "CoreLocation", "Swift"]

    /// Everything wrong between the graph and the files' imports:
    /// - "X/a.swift imports M, which X does not depend on" (an import that is not an edge);
    /// - "X/a.swift re-exports M" (only the umbrella re-exports);
    /// - "X depends on M, which none of its files imports" (an unused edge).
    static func violations(_ graph: Graph, files: [SourceFile]) -> [String] {
        var out: [String] = []
        var imported: [String: Set<String>] = [:]
        for f in files {
            let allowed = Set(graph[f.target] ?? []).union(system).union([f.target])
            for i in imports(f.text) {
                imported[f.target, default: []].insert(i.module)
                if !allowed.contains(i.module) {
                    out.append("\(f.path) imports \(i.module), which \(f.target) does not depend on")
                }
                if i.exported && f.target != umbrella {
                    out.append("\(f.path) re-exports \(i.module): only \(umbrella) re-exports")
                }
            }
        }
        for target in graph.keys.sorted() {
            for dep in graph[target] ?? [] where !(imported[target] ?? []).contains(dep) {
                out.append("\(target) depends on \(dep), which none of its files imports")
            }
        }
        return out
    }

    /// The Swift files of each target's folder under `root/Sources`.
    static func libraryFiles(_ graph: Graph, root: String = Paths.root) throws -> [SourceFile] {
        let base = root + "/Sources"
        var out: [SourceFile] = []
        for target in graph.keys.sorted() {
            let dir = base + "/" + target
            let paths = FileManager.default.enumerator(atPath: dir)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
            for p in paths { out.append((target, target + "/" + p, try read(dir + "/" + p))) }
        }
        return out
    }

    /// Each edge one graph has and the other lacks: "undrawn: B -> CZ", "not in Package.swift: ...".
    static func differences(package: Graph, documented: Graph) -> [String] {
        func edges(_ g: Graph) -> Set<String> {
            Set(g.flatMap { t, deps in deps.isEmpty ? ["\(t)"] : deps.map { "\(t) -> \($0)" } })
        }
        let p = edges(package), d = edges(documented)
        return p.subtracting(d).sorted().map { "undrawn: \($0)" } + d.subtracting(p).sorted().map { "not in Package.swift: \($0)" }
    }

    @Test func packageGraphIsTheDocumentedOne() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let documented = Self.documentedGraph(try read(Paths.root + "/docs/architecture.md"))
        #expect(package.count >= 15, "Package.swift's layer targets are read")
        let differences = Self.differences(package: package, documented: documented)
        #expect(differences.isEmpty, "Package.swift and docs/architecture.md's <!-- targets --> list differ:\n\(differences.joined(separator: "\n"))")
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

    @Test func theGraphIsAtMostTenFloorsDeep() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let deepest = package.keys.map { Self.depth(package, of: $0) }.max() ?? 0
        #expect(deepest > 5 && deepest <= Self.maximumDepth, "the longest chain of library targets is \(deepest) floors")
    }

    /// Every edge is used, every import is an edge, and only the umbrella re-exports.
    @Test func theGraphIsWhatTheFilesImport() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let files = try Self.libraryFiles(package)
        #expect(files.count > 150, "the library's files are read")
        let violations = Self.violations(package, files: files)
        #expect(violations.isEmpty, "against the layering (docs/architecture.md):\n\(violations.joined(separator: "\n"))")
    }

    /// The umbrella re-exports every layer, so a user of the library product imports one module.
    @Test func theUmbrellaReExportsEveryLayer() throws {
        let package = Self.packageGraph(try read(Paths.root + "/Package.swift"))
        let exported = Set(Self.imports(try read(Paths.root + "/Sources/CKSchema/CKSchema.swift")).filter(\.exported).map(\.module))
        let layers = Set(package.keys).subtracting([Self.umbrella])
        #expect(exported == layers, "Sources/CKSchema/CKSchema.swift re-exports every layer and nothing else")
        #expect(Set(package[Self.umbrella] ?? []) == layers)
    }

    /// Every library target (and the executable) turns on MemberImportVisibility, so a member
    /// from a module the file does not import is a compile error, not a silent leak.
    @Test func everyTargetHasMemberImportVisibility() throws {
        let manifest = try read(Paths.root + "/Package.swift")
        #expect(manifest.contains(#".enableUpcomingFeature("MemberImportVisibility")"#))
        let pattern = #/\.target\(name:\s*"(\w+)",\s*dependencies:\s*\[[^\]]*\](,\s*swiftSettings:\s*layer)?\)/#
        let without = manifest.matches(of: pattern).filter { $0.2 == nil }.map { String($0.1) }
        #expect(!manifest.matches(of: pattern).isEmpty)
        #expect(without.isEmpty, "targets without `swiftSettings: layer`: \(without)")
    }

    /// The checks catch each wrong shape: an import up or across that is not an edge, a
    /// re-export below the umbrella, an edge no file uses, a graph the document does not
    /// draw, and a chain too deep. The files are planted on disk and read as the real ones are.
    @Test func theChecksCatchWhatTheyShould() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("layering-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let graph: Graph = ["A": [], "B": ["A"], "C": ["A"], "D": ["B", "C"], "CKSchema": ["D"]]
        let planted = [
            "B/x.swift": "import Foundation\nimport A\n@testable import C\n",     // C is not B's edge
            "A/y.swift": "// import D in a comment\npublic import D\n",           // up the graph
            "D/z.swift": "@_exported import B\nimport A\n",                       // re-export; A is only transitive; C unused
            "C/w.swift": "internal import A\n",
            "CKSchema/u.swift": "@_exported import D\n",                          // the umbrella may
        ]
        for (path, text) in planted {
            let file = root + "/Sources/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: file, atomically: true, encoding: .utf8)
        }
        let files = try Self.libraryFiles(graph, root: root)
        #expect(files.count == 5)
        // Files are read target by target (A, B, C, CKSchema, D), each file's imports in order.
        #expect(Self.violations(graph, files: files) == [
            "A/y.swift imports D, which A does not depend on",
            "B/x.swift imports C, which B does not depend on",
            "D/z.swift re-exports B: only CKSchema re-exports",
            "D/z.swift imports A, which D does not depend on",
            "D depends on C, which none of its files imports",
        ])
        // The good graph and files give nothing.
        let good: [SourceFile] = [("B", "B/x.swift", "import A\n"), ("C", "C/w.swift", "import A\n"), ("D", "D/z.swift", "import B\nimport C\n")]
        #expect(Self.violations(["A": [], "B": ["A"], "C": ["A"], "D": ["B", "C"]], files: good).isEmpty)
        // An undrawn edge: the document's list differs from the manifest's.
        let manifest = #".target(name: "B", dependencies: ["A", "CZ"], swiftSettings: layer),"#
        #expect(Self.packageGraph(manifest) == ["B": ["A", "CZ"]])
        let drawn = Self.documentedGraph("<!-- targets -->\n```\nA:\nB: A\nE: A\n```\n<!-- /targets -->")
        #expect(Self.differences(package: ["A": [], "B": ["A", "CZ"]], documented: drawn) == ["undrawn: B -> CZ", "not in Package.swift: E -> A"])
        #expect(Self.differences(package: ["A": [], "B": ["A"], "E": ["A"]], documented: drawn).isEmpty)
        // Depth: a chain of twelve is too deep, and a cycle still ends.
        let chain = Graph(uniqueKeysWithValues: (0..<12).map { ("T\($0)", $0 == 0 ? [] : ["T\($0 - 1)"]) })
        #expect(Self.depth(chain, of: "T11") == 12)
        #expect(Self.depth(["X": ["Y"], "Y": ["X"]], of: "X") <= 3)
    }
}
