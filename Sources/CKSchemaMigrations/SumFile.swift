import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// `Migrations/ckschema.sum`: a checksum of each migration file, then one of the whole folder.
///
/// Checksums are over a normalized form of each file (its YAML tree with mapping keys sorted,
/// comments dropped, scalars as parsed), so line endings, trailing spaces, comments and key order
/// do not change them. The folder line is last and changes with every file, so two branches that
/// each add a migration both change the lines before it and conflict in git, as they should.
public struct SumFile: Sendable, Hashable {
    /// The file name in the migrations folder.
    public static let fileName = "ckschema.sum"

    public struct Entry: Sendable, Hashable {
        public var file: String
        public var checksum: String
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    /// The sum of a folder's migrations, in version order.
    public init(migrations: [Migration]) {
        entries = migrations.sorted { $0.version < $1.version }.map { Entry(file: $0.fileName, checksum: $0.checksum) }
    }

    /// The checksum of the folder as a whole: over every entry line in order.
    public var folderChecksum: String {
        SHA256.hex(entries.map { "\($0.file) h1:\($0.checksum)\n" }.joined())
    }

    /// The file's text.
    public var text: String {
        var out = "# ckschema.sum: checksums of the migration files (normalized), then of the folder.\n"
        out += "# Written by `ckschema migrate hash`; do not edit. A merge conflict here means two branches\n"
        out += "# added migrations: renumber yours after the other branch's, then run `ckschema migrate hash`.\n"
        for e in entries { out += "\(e.file) h1:\(e.checksum)\n" }
        out += "folder h1:\(folderChecksum)\n"
        return out
    }

    /// Parses a sum file; `path` names it in diagnostics.
    public static func parse(_ text: String, path: String) throws(InputError) -> SumFile {
        var entries: [Entry] = []
        var folder: String?
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: " ")
            guard parts.count == 2, parts[1].hasPrefix("h1:"), parts[1].count == 67, folder == nil else {
                throw InputError(Diagnostic(rule: StoreRules.sumMissing, folder != nil ? "the folder line must be the last line of the sum file" : "malformed line in the sum file",
                                        at: SourceLocation(file: path, line: i + 1, column: 1),
                                        fix: "if it is a merge conflict, renumber your migration after the other branch's; then run `ckschema migrate hash`"))
            }
            let sum = String(parts[1].dropFirst(3))
            if parts[0] == "folder" { folder = sum } else { entries.append(Entry(file: String(parts[0]), checksum: sum)) }
        }
        let s = SumFile(entries: entries)
        guard let folder else {
            throw InputError(Diagnostic(rule: StoreRules.sumMissing, "the sum file has no `folder` line", at: SourceLocation(file: path, line: 1, column: 1),
                                    fix: "run `ckschema migrate hash`"))
        }
        if folder != s.folderChecksum {
            throw InputError(Diagnostic(rule: StoreRules.sumMismatch, "the sum file's folder checksum does not match its own lines: it was edited by hand or merged",
                                    at: SourceLocation(file: path, line: 1, column: 1), fix: "run `ckschema migrate hash` after checking the migrations"))
        }
        return s
    }

    /// The differences between this (the expected sum, from the files) and a recorded sum file.
    public func mismatches(recorded: SumFile, folder: String) -> [Diagnostic] {
        let path = (folder as NSString).appendingPathComponent(Self.fileName)
        var out: [Diagnostic] = []
        let recordedByFile = Dictionary(recorded.entries.map { ($0.file, $0.checksum) }, uniquingKeysWith: { a, _ in a })
        let mine = Set(entries.map(\.file))
        for e in entries {
            let at = SourceLocation(file: (folder as NSString).appendingPathComponent(e.file), line: 1, column: 1)
            guard let r = recordedByFile[e.file] else {
                out.append(Diagnostic(rule: StoreRules.sumMismatch, "'\(e.file)' is not in \(Self.fileName): it was added without `ckschema migrate hash`", at: at,
                                  fix: "review it, then run `ckschema migrate hash`"))
                continue
            }
            if r != e.checksum {
                out.append(Diagnostic(rule: StoreRules.sumMismatch, "'\(e.file)' has changed since \(Self.fileName) was written", at: at,
                                  fix: "if the change is meant and the migration is not applied anywhere yet, run `ckschema migrate hash`; otherwise undo it and add a new migration"))
            }
        }
        for r in recorded.entries where !mine.contains(r.file) {
            out.append(Diagnostic(rule: StoreRules.sumMismatch, "'\(r.file)' is in \(Self.fileName) but not in the folder: it was removed or renamed",
                              at: SourceLocation(file: path, line: 1, column: 1), fix: "restore the file; migrations are never removed once shared"))
        }
        return out
    }

    /// The normalized text of a YAML tree that checksums are computed over.
    public static func normalizedText(of node: YAMLNode?) -> String {
        guard let node else { return "null" }
        return normalized(node).text
    }

    private static func normalized(_ n: YAMLNode) -> JSONValue {
        switch n.kind {
        case .scalar(let s, let style):
            // A quoted "5" is a string and a plain 5 a number: keep the distinction, not the quote style.
            return .string((style == .plain ? "p:" : "q:") + s)
        case .sequence(let items):
            return .array(items.map(normalized))
        case .mapping(let pairs):
            return .object(pairs.map { (SumFile.keyText($0.key), normalized($0.value)) }.sorted { $0.0 < $1.0 })
        }
    }

    private static func keyText(_ k: YAMLNode) -> String { k.scalar ?? normalized(k).text }
}
