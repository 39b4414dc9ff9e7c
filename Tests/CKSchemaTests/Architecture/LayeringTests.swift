import Foundation
import Testing

/// The library's folders form layers (docs/architecture.md): a folder may use the types of
/// the folders below it, never those above it or beside it. The test reads `Sources/CKSchema`,
/// finds each folder's top-level types, and fails on any reference against the layering.
@Suite struct LayeringTests {
    /// From the bottom up. Folders in one entry are peers and must not use each other.
    static let layers: [[String]] = [
        ["Support"],
        ["Model"],
        ["Diagnostics"],
        ["YAML", "CKDB", "CoreData", "Predicate"],
        ["Lint"],
        ["Diff"],
        ["Config"],
        ["Records", "Pull"],
        ["Store"],
        ["Runtime"],
        ["Migrations"],
        ["Catalog", "Check"],
    ]

    struct SourceFile {
        var folder: String
        var name: String
        var text: String
    }

    /// Every file of the library, subfolders included (`Migrations/Steps/X.swift` belongs to
    /// the layer `Migrations`).
    static func sources() throws -> [SourceFile] {
        let base = Paths.root + "/Sources/CKSchema"
        let paths = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted() ?? []
        return try paths.compactMap { path in
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count >= 2 else { return nil }
            return SourceFile(folder: parts[0], name: parts.dropFirst().joined(separator: "/"), text: try read(base + "/" + path))
        }
    }

    @Test func subfoldersBelongToTheirLayer() throws {
        let steps = try Self.sources().filter { $0.name.hasPrefix("Steps/") }
        #expect(steps.count >= 14, "Migrations/Steps is read")
        #expect(steps.allSatisfy { $0.folder == "Migrations" })
        #expect(Self.declarations(steps)["BackfillStep"] == "Migrations")
    }

    /// Top-level type names (declared at the start of a line) and the folder of each.
    static func declarations(_ files: [SourceFile]) -> [String: String] {
        var out: [String: String] = [:]
        let keywords: Set<String> = ["struct", "enum", "class", "protocol", "typealias", "actor"]
        let modifiers: Set<String> = ["public", "internal", "private", "fileprivate", "final", "package"]
        for f in files {
            for line in f.text.split(separator: "\n") where line.first?.isLetter == true {
                let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" || $0 == "=" }).map(String.init)
                var i = 0
                while i < words.count, modifiers.contains(words[i]) { i += 1 }
                if i + 1 < words.count, keywords.contains(words[i]), out[words[i + 1]] == nil { out[words[i + 1]] = f.folder }
            }
        }
        return out
    }

    /// The capitalised identifiers a file uses, without comments, string literals, member
    /// names (`CoreDataModel.Configuration`) and the types the file nests itself.
    static func identifiers(_ text: String) -> Set<String> {
        var out = Set<String>()
        var word = ""
        var inString = false, inComment = false, afterDot = false
        var previous: Character = " "
        for ch in text {
            if inComment { if ch == "\n" { inComment = false }; previous = ch; continue }
            if inString {
                if ch == "\"" && previous != "\\" { inString = false }
                previous = ch
                continue
            }
            if ch == "/" && previous == "/" { inComment = true; word = ""; previous = ch; continue }
            if ch == "\"" { inString = true; word = ""; previous = ch; continue }
            if ch.isLetter || ch.isNumber || ch == "_" {
                if word.isEmpty { afterDot = previous == "." }
                word.append(ch)
            } else {
                if let first = word.first, first.isUppercase, !afterDot { out.insert(word) }
                word = ""
            }
            previous = ch
        }
        return out.subtracting(nestedTypes(text))
    }

    /// Types a file declares inside another type (indented declarations).
    static func nestedTypes(_ text: String) -> Set<String> {
        var out = Set<String>()
        for line in text.split(separator: "\n") where line.first == " " {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "<" || $0 == "{" }).map(String.init)
            if let i = words.firstIndex(where: { ["struct", "enum", "class", "protocol", "typealias"].contains($0) }), i + 1 < words.count {
                out.insert(words[i + 1])
            }
        }
        return out
    }

    @Test func everyFolderIsInALayer() throws {
        let folders = Set(try Self.sources().map(\.folder))
        let layered = Set(Self.layers.joined())
        #expect(folders.subtracting(layered).isEmpty, "folders without a layer: \(folders.subtracting(layered).sorted())")
    }

    /// Every reference from a folder to a type of a folder at its own layer or above.
    static func violations(_ files: [SourceFile]) -> [String] {
        let declared = declarations(files)
        var rank: [String: Int] = [:]
        for (i, layer) in layers.enumerated() { for folder in layer { rank[folder] = i } }
        var out: [String] = []
        for f in files {
            guard let mine = rank[f.folder] else { continue }
            for name in identifiers(f.text).sorted() {
                guard let folder = declared[name], folder != f.folder, let theirs = rank[folder] else { continue }
                if theirs >= mine { out.append("\(f.folder)/\(f.name) uses \(name) (\(folder))") }
            }
        }
        return out
    }

    @Test func referencesRunDownTheLayers() throws {
        let violations = Self.violations(try Self.sources())
        #expect(violations.isEmpty, "against the layering (docs/architecture.md):\n\(violations.joined(separator: "\n"))")
    }

    /// The check itself catches a reference up, or across to a peer, and ignores comments,
    /// strings and member names.
    @Test func theCheckCatchesWhatItShould() {
        let files = [
            SourceFile(folder: "Model", name: "Schema.swift", text: "public struct Schema {\n    var plan: PromotionPlan?\n}\n"),
            SourceFile(folder: "Diff", name: "PromotionPlan.swift", text: "public struct PromotionPlan {\n    var s: Schema\n}\n"),
            SourceFile(folder: "YAML", name: "YAMLReader.swift", text: "enum YAMLReader {\n    // CKDBParser in a comment\n    let s = \"CKDBParser\"\n    let k = Foo.CKDBParser\n}\n"),
            SourceFile(folder: "CKDB", name: "CKDBParser.swift", text: "enum CKDBParser {\n    let r = YAMLReader.self\n}\n"),
        ]
        #expect(Self.violations(files) == ["Model/Schema.swift uses PromotionPlan (Diff)", "CKDB/CKDBParser.swift uses YAMLReader (YAML)"])
    }
}
