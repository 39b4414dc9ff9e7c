import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore

/// The `Migrations/` folder: its migration files in version order and its sum file.
public struct MigrationFolder: Sendable {
    public var path: String
    /// Every migration, by version (1, 2, 3, ... with no gap or duplicate).
    public var migrations: [Migration]

    /// A folder of these migrations (a baseline writes its one migration this way).
    package init(path: String, migrations: [Migration]) {
        self.path = path
        self.migrations = migrations
    }

    /// Reads every `NNNN_name.yaml` in `path`. Throws `InputError` listing every unreadable file,
    /// bad name, duplicate version and gap. A missing folder is an empty history.
    public static func load(path: String) throws(InputError) -> MigrationFolder {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDir) else { return MigrationFolder(path: path, migrations: []) }
        guard isDir.boolValue else {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "'\(path)' is a file where the migrations folder was expected", at: SourceLocation(file: path, line: 1, column: 1)))
        }
        let names: [String]
        do { names = try fm.contentsOfDirectory(atPath: path).sorted() } catch {
            throw InputError(Diagnostic(rule: InputRules.unreadable, "cannot list the migrations folder '\(path)'", at: SourceLocation(file: path, line: 1, column: 1)))
        }
        var diagnostics: [Diagnostic] = []
        var migrations: [Migration] = []
        for name in names where !name.hasPrefix(".") && name != SumFile.fileName && !name.lowercased().hasSuffix(".md") {
            let file = (path as NSString).appendingPathComponent(name)
            guard Migration.parseFileName(name) != nil else {
                diagnostics.append(Diagnostic(rule: StoreRules.fileName, "'\(name)' in the migrations folder is not named NNNN_name.yaml", at: SourceLocation(file: file, line: 1, column: 1),
                                          fix: "rename it like 0001_initial.yaml (four digits, '_', a name), or move it out of the folder"))
                continue
            }
            do { migrations.append(try Migration.read(path: file)) } catch { diagnostics += error.diagnostics }
        }
        migrations.sort { ($0.version, $0.fileName) < ($1.version, $1.fileName) }
        var seen: [Int: Migration] = [:]
        for m in migrations {
            if let first = seen[m.version] {
                diagnostics.append(Diagnostic(rule: StoreRules.duplicateVersion, "version \(m.version) is used twice: '\(first.fileName)' and '\(m.fileName)'",
                                          at: SourceLocation(file: m.path, line: 1, column: 1),
                                          fix: "renumber the newer one after the last migration, then run `ckschema migrate hash`"))
            } else { seen[m.version] = m }
        }
        var expected = 1
        for v in seen.keys.sorted() {
            if v != expected, let m = seen[v] {
                let missing = expected == v - 1 ? "\(expected)" : "\(expected)–\(v - 1)"
                diagnostics.append(Diagnostic(rule: StoreRules.gap, "migration numbers skip \(missing): '\(m.fileName)' follows version \(expected - 1)",
                                          at: SourceLocation(file: m.path, line: 1, column: 1),
                                          fix: "number migrations 1, 2, 3, ... with no gap; rename '\(m.fileName)' to \(String(format: "%04d", expected))_\(m.name).yaml"))
            }
            expected = v + 1
        }
        if !diagnostics.isEmpty { throw InputError(diagnostics) }
        return MigrationFolder(path: path, migrations: migrations)
    }

    /// The sum file the folder's files give.
    public var expectedSum: SumFile { SumFile(migrations: migrations) }

    public var sumPath: String { (path as NSString).appendingPathComponent(SumFile.fileName) }

    /// Checks `ckschema.sum` against the files: every migrate command refuses to run when they differ.
    /// A folder without migrations needs no sum file.
    public func verifySum() throws(InputError) {
        guard let data = FileManager.default.contents(atPath: sumPath) else {
            if migrations.isEmpty { return }
            throw InputError(Diagnostic(rule: StoreRules.sumMissing, "the migrations folder has no \(SumFile.fileName)", at: SourceLocation(file: sumPath, line: 1, column: 1),
                                    fix: "run `ckschema migrate hash` to write it, and commit it with the migrations"))
        }
        let recorded = try SumFile.parse(String(decoding: data, as: UTF8.self), path: sumPath)
        let problems = expectedSum.mismatches(recorded: recorded, folder: path)
        if !problems.isEmpty { throw InputError(problems) }
    }

    /// Writes `ckschema.sum` from the files (`migrate hash`). Returns the text written.
    @discardableResult
    public func writeSum() throws(InputError) -> String {
        let text = expectedSum.text
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try InputFile.write(text, to: sumPath)
        return text
    }

    /// The schema after each migration, replayed once from an empty schema: element i is the
    /// schema migrations 1...i+1 give (linear in the folder, where replaying each prefix
    /// again would be quadratic).
    public func replays() throws(InputError) -> [Schema] {
        var schema = Schema()
        var out: [Schema] = []
        out.reserveCapacity(migrations.count)
        for m in migrations {
            try SchemaChanger.apply(m, to: &schema)
            out.append(schema)
        }
        return out
    }

    /// The schema every migration produces, replayed from an empty schema.
    public func replay(upTo version: Int? = nil) throws(InputError) -> Schema {
        var schema = Schema()
        for m in migrations where version.map({ m.version <= $0 }) ?? true {
            try SchemaChanger.apply(m, to: &schema)
        }
        return schema
    }
}
