import Foundation
import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// One migration file, `Migrations/NNNN_name.yaml`: a version, a name, and its steps.
public struct Migration: Sendable, Hashable {
    public var version: Int
    /// The part of the file name after the number (`add_title`).
    public var name: String
    /// The file name (`0002_add_title.yaml`).
    public var fileName: String
    /// The path it was read from.
    public var path: String
    /// SHA-256 of the file's normalized form (`SumFile.normalizedText`).
    public var checksum: String
    public var description: String?
    public var steps: [MigrationStep]

    public init(version: Int, name: String, fileName: String, path: String, checksum: String, description: String? = nil, steps: [MigrationStep]) {
        self.version = version
        self.name = name
        self.fileName = fileName
        self.path = path
        self.checksum = checksum
        self.description = description
        self.steps = steps
    }

    /// The version and name from a file name: `0002_add_title.yaml` gives (2, "add_title").
    public static func parseFileName(_ fileName: String) -> (version: Int, name: String)? {
        guard fileName.hasSuffix(".yaml") else { return nil }
        let stem = fileName.dropLast(5)
        guard let us = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<us], name = stem[stem.index(after: us)...]
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let v = Int(digits), v > 0, !name.isEmpty,
              name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        else { return nil }
        return (v, String(name))
    }

    /// Reads and parses a migration file. Throws `InputError` with file:line:col diagnostics.
    public static func read(path: String) throws(InputError) -> Migration {
        let data = try InputFile.read(path: path, limit: YAMLReader.maxFileSize)
        return try parse(data, path: path)
    }

    /// Parses a migration file's text; `path` names it (its last component must be `NNNN_name.yaml`).
    public static func parse(_ data: Data, path: String) throws(InputError) -> Migration {
        let fileName = (path as NSString).lastPathComponent
        guard let (version, name) = parseFileName(fileName) else {
            throw InputError(Diagnostic(rule: StoreRules.fileName, "migration file '\(fileName)' is not named NNNN_name.yaml", at: SourceLocation(file: path, line: 1, column: 1),
                                    fix: "rename it like 0001_initial.yaml: four digits, an underscore, a name of letters, digits, '_' or '-'"))
        }
        let doc = try YAMLReader.parse(data, file: path)
        var p = MigrationParser(file: path)
        let (description, steps) = try p.parseRoot(doc.root)
        if !p.diagnostics.isEmpty { throw InputError(p.diagnostics) }
        return Migration(version: version, name: name, fileName: fileName, path: path,
                         checksum: SHA256.hex(SumFile.normalizedText(of: doc.root)), description: description, steps: steps)
    }
}

/// Turns a migration file's YAML nodes into steps, collecting every problem it finds.
struct MigrationParser {
    let file: String
    var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    func loc(_ n: YAMLNode) -> SourceLocation { n.location(in: file) }

    mutating func error(_ rule: RuleInfo, _ message: String, _ node: YAMLNode, fix: String? = nil) {
        diagnostics.append(.error(rule, message, at: loc(node), fix: fix))
    }

    mutating func parseRoot(_ root: YAMLNode?) throws(InputError) -> (String?, [MigrationStep]) {
        guard let root, let pairs = root.mapping else {
            let at = root.map(loc) ?? SourceLocation(file: file, line: 1, column: 1)
            throw InputError(Diagnostic(rule: InputRules.wrongKind, "a migration file is a mapping with `steps:` (found \(root?.kindName ?? "an empty file"))", at: at,
                                    fix: "start the file with `steps:` and a list of steps; see docs/migrations.md"))
        }
        var description: String?
        var stepsNode: YAMLNode?
        for pair in pairs {
            switch pair.name {
            case "description": description = pair.value.scalar
            case "steps": stepsNode = pair.value
            default: error(StoreRules.invalidStep, "unknown key '\(pair.name)' in a migration file; it has `description` and `steps`", pair.key)
            }
        }
        guard let stepsNode else {
            throw InputError(Diagnostic(rule: InputRules.missingKey, "the migration has no `steps:`", at: loc(root), fix: "add `steps:` with a list of steps"))
        }
        guard let items = stepsNode.sequence else {
            throw InputError(Diagnostic(rule: InputRules.wrongKind, "`steps` is a list of steps (found \(stepsNode.kindName))", at: loc(stepsNode)))
        }
        var steps: [MigrationStep] = []
        for item in items {
            if let s = parseStep(item) { steps.append(s) }
        }
        return (description, steps)
    }

    mutating func parseStep(_ node: YAMLNode) -> MigrationStep? {
        guard let pairs = node.mapping, pairs.count == 1, let pair = pairs.first else {
            error(StoreRules.invalidStep, "a step is a mapping with one key, the step's kind (like `addField:`); found \(node.kindName)\(node.mapping.map { " with \($0.count) keys" } ?? "")", node)
            return nil
        }
        let kind = pair.name
        guard let k = MigrationStep.kinds.first(where: { $0.key == kind }) else {
            let suggestion = Suggest.closest(to: kind, in: MigrationStep.kindNames)
            error(StoreRules.unknownStep, "unknown step '\(kind)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""), pair.key,
                  fix: "the steps are " + MigrationStep.kindNames.joined(separator: ", "))
            return nil
        }
        return step(k, pair)
    }

    /// A step of kind `K`, its problems added to the file's.
    private mutating func step<K: MigrationStepKind>(_ k: K.Type, _ pair: YAMLPair) -> MigrationStep? {
        let (action, found) = StepArguments.parse(k, node: pair.value, file: file)
        diagnostics += found
        return action.map { MigrationStep($0, location: loc(pair.key)) }
    }
}
