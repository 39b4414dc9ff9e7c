import Foundation
import CKSchemaDiagnostics
import CKSchemaDiff
import CKSchemaModel
import CKSchemaYAML

/// `ckschema.yaml`: where a repository keeps its schemas, migrations, store and record
/// fixtures, and how lint and check behave. Every command finds it from the current
/// folder upwards; explicit paths on the command line override it.
public struct Configuration: Sendable, Equatable {
    public static let fileName = "ckschema.yaml"
    /// Where the store is when ckschema.yaml does not say (or there is no ckschema.yaml).
    public static let defaultStore = ".ckschema/store.sqlite"
    /// The migrations folder when ckschema.yaml does not say.
    public static let defaultMigrations = "Migrations"

    /// The store a command uses: its `--store` option, else ckschema.yaml's `store:`, else
    /// `defaultStore`. The one statement of that precedence, for every command.
    public static func storePath(_ option: String?, config: Configuration?) -> String {
        option ?? config?.store ?? defaultStore
    }

    /// The migrations folder a command uses: `--migrations`, else ckschema.yaml's, else `defaultMigrations`.
    public static func migrationsPath(_ option: String?, config: Configuration?) -> String {
        option ?? config?.migrations ?? defaultMigrations
    }

    /// A record file `check` validates, and the environment it is headed for.
    public struct RecordFile: Sendable, Equatable {
        public var path: String
        public var environment: Environment
        public init(path: String, environment: Environment) { self.path = path; self.environment = environment }
    }

    /// The file it was read from (nil for the defaults).
    public var path: String?
    /// The development schema source (file, folder or .ckdb), resolved.
    public var developmentSchema: String?
    /// The production schema source, resolved.
    public var productionSchema: String?
    public var migrations: String
    public var store: String
    public var records: [RecordFile]
    public var lint: RuleSettings
    /// `promote: { disable: [...], severity: { CK311: note } }`: the production rules'
    /// classes, as a team decides them (docs/promotion.md, "Configuring the rules").
    public var promote: RuleSettings = RuleSettings()
    /// Every rule code the file names, where it names it, for `RuleCatalog.unknownCodes`.
    public var ruleCodes: [RuleCodeMention] = []
    /// The lowest severity that fails lint and check.
    public var failOn: Severity
    /// The checks `ckschema check` runs; nil means every one that is configured.
    public var checks: [CheckName]?
    /// The iCloud container (`container:`), for `pull`; else the development schema's.
    public var container: String?
    /// The Apple developer team (`team:` or `teamId:`), for `pull`, `push`, `reset` and `verify`.
    public var team: String?
    /// `coreData:` — the model version and configuration of a Core Data schema source;
    /// `swiftData: { models: [...] }` — the `@Model` classes of a SwiftData source.
    public var model: ModelSelection?
    /// `code:`: the app's Swift source folders, which `check` scans (`ckschema scan`).
    public var code: [String] = []
    /// `sharing: true`: the app shares records (CKShare), whatever the scan of `code:` finds;
    /// `promote --check` and `check` then require what sharing writes in production (CK320,
    /// CK321). `false` says it does not share, so the code is not scanned for it. Nil: the
    /// scan of `code:` decides.
    public var sharing: Bool?
    /// Where `sharing:` was written, for the diagnostics that quote it.
    public var sharingLocation: SourceLocation?

    public init(
        path: String? = nil, developmentSchema: String? = nil, productionSchema: String? = nil,
        migrations: String = Configuration.defaultMigrations, store: String = Configuration.defaultStore, records: [RecordFile] = [],
        lint: RuleSettings = RuleSettings(), failOn: Severity = .error, checks: [CheckName]? = nil
    ) {
        self.path = path
        self.developmentSchema = developmentSchema
        self.productionSchema = productionSchema
        self.migrations = migrations
        self.store = store
        self.records = records
        self.lint = lint
        self.failOn = failOn
        self.checks = checks
    }

    static let topKeys = ["ckschema", "schemas", "migrations", "store", "records", "lint", "promote", "check", "container", "team", "teamId", "coreData", "swiftData", "code", "sharing"]
    /// The schema source ckschema.yaml names for an environment (`schemas.development`, `schemas.production`).
    public func schema(for environment: Environment) -> String? {
        environment == .production ? productionSchema : developmentSchema
    }

    /// Where ckschema.yaml names each environment's schema (`schemas.development: ...`).
    public var schemaLocations: [Environment: SourceLocation] = [:]

    /// `diagnostics` with "no such schema file or folder" for a schema this file names
    /// reported where it names it: at the line of ckschema.yaml, not at line 1 of a file that
    /// does not exist (issue 32 point 8). Other diagnostics are returned as they are.
    public func locatingMissingSchemas(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { d in
            guard d.code == InputRules.unreadable.code, let file = d.location?.file, !FileManager.default.fileExists(atPath: file),
                  let env = Environment.allCases.first(where: { schema(for: $0) == file }), let at = schemaLocations[env] else { return d }
            var moved = d
            moved.location = at
            moved.message = "schemas.\(env.rawValue) names '\(file)', which does not exist"
            moved.fix = "correct the path here (it is relative to the folder of ckschema.yaml), or create the schema there"
            return moved
        }
    }

    mutating func setSchema(_ path: String, for environment: Environment) {
        if environment == .production { productionSchema = path } else { developmentSchema = path }
    }

    /// The checks `ckschema check` knows, as ckschema.yaml's `check:` spells them.
    public static let checkNames = CheckName.allCases.map(\.rawValue)

    /// Looks for `ckschema.yaml` in `folder` and its parents; nil when there is none.
    public static func find(from folder: String = FileManager.default.currentDirectoryPath) throws(InputError) -> Configuration? {
        var url = URL(fileURLWithPath: folder).standardizedFileURL
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).standardizedFileURL.path
        while true {
            let candidate = url.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) {
                let display = url.path == cwd ? fileName : candidate
                return try load(path: display)
            }
            let parent = url.deletingLastPathComponent()
            if parent.path == url.path { return nil }
            url = parent
        }
    }

    /// Reads one `ckschema.yaml`; paths in it are relative to its folder.
    public static func load(path: String) throws(InputError) -> Configuration {
        let doc = try YAMLReader.read(path: path)
        var d = NodeDecoder(file: path)
        var config = Configuration(path: path)
        let base = (path as NSString).deletingLastPathComponent
        func resolve(_ p: String) -> String {
            if p.hasPrefix("/") || base.isEmpty { return p }
            return (base as NSString).appendingPathComponent(p)
        }
        config.migrations = resolve(config.migrations)
        config.store = resolve(config.store)
        guard let root = doc.root, !root.isNull else {
            throw InputError(Diagnostic(rule: InputRules.config, "ckschema.yaml is empty", at: SourceLocation(file: path, line: 1, column: 1),
                                    fix: "run 'ckschema init' to write one"))
        }
        guard let pairs = d.mapping(root, what: "ckschema.yaml", allowed: topKeys) else { throw InputError(d.diagnostics) }
        for p in pairs {
            switch p.name {
            case "ckschema":
                if let v = d.int(p.value, what: "'ckschema'"), v != Schema.formatVersion {
                    d.report(InputRules.invalidValue, "ckschema.yaml format version \(v) is not supported; this ckschema reads version \(Schema.formatVersion)", at: p.value)
                }
            case "schemas":
                // The keys are the environments' own names (`Environment.rawValue`), the one spelling.
                guard let s = d.mapping(p.value, what: "'schemas'", allowed: Environment.allCases.map(\.rawValue)) else { continue }
                for q in s {
                    guard let v = d.string(q.value, what: "'schemas.\(q.name)'"), let env = Environment(rawValue: q.name) else { continue }
                    config.setSchema(resolve(v), for: env)
                    config.schemaLocations[env] = d.location(q.value)
                }
            case "migrations": if let v = d.string(p.value, what: "'migrations'") { config.migrations = resolve(v) }
            case "store": if let v = d.string(p.value, what: "'store'") { config.store = resolve(v) }
            case "records":
                guard let items = p.value.sequence else {
                    d.report(InputRules.wrongKind, "'records' must be a list, found \(p.value.kindName)", at: p.value)
                    continue
                }
                for item in items {
                    if let s = item.scalar {
                        config.records.append(RecordFile(path: resolve(s), environment: .production))
                        continue
                    }
                    guard let m = d.mapping(item, what: "an item of 'records'", allowed: ["path", "env"]) else { continue }
                    var rec = RecordFile(path: "", environment: .production)
                    for q in m {
                        if q.name == "path", let v = d.string(q.value, what: "'path'") { rec.path = resolve(v) }
                        if q.name == "env", let e = d.enumValue(q.value, what: "environment", as: Environment.self) { rec.environment = e }
                    }
                    if rec.path.isEmpty { d.report(InputRules.missingKey, "a records entry has no 'path'", at: item) } else { config.records.append(rec) }
                }
            case "lint":
                guard let m = d.mapping(p.value, what: "'lint'", allowed: ["disable", "severity", "failOn"]) else { continue }
                for q in m {
                    if q.name == "failOn" {
                        if let v = d.enumValue(q.value, what: "severity", as: Severity.self) { config.failOn = v }
                    } else {
                        ruleSetting(q, section: "lint", into: &config.lint, codes: &config.ruleCodes, &d)
                    }
                }
            case "promote":
                guard let m = d.mapping(p.value, what: "'promote'", allowed: ["disable", "severity"]) else { continue }
                for q in m { ruleSetting(q, section: "promote", into: &config.promote, codes: &config.ruleCodes, &d) }
            case "check":
                var names: [CheckName] = []
                for (name, node) in d.stringList(p.value, what: "'check'") {
                    if let check = CheckName(rawValue: name) { names.append(check) } else {
                        d.report(InputRules.invalidValue, "'\(name)' is not a check\(Suggest.phrase(for: name, in: checkNames))", at: node,
                                 fix: "use some of: " + checkNames.joined(separator: ", "))
                    }
                }
                config.checks = names
            case "code":
                for (path, _) in d.stringList(p.value, what: "'code'") { config.code.append(resolve(path)) }
            case "container": if let v = d.string(p.value, what: "'container'") { config.container = v }
            case "sharing":
                if let v = d.bool(p.value, what: "'sharing'") {
                    config.sharing = v
                    config.sharingLocation = d.location(p.key)
                }
            case "team": if let v = d.string(p.value, what: "'team'") { config.team = v }
            // `teamId:`, cktool's own word (--team-id), is the same setting.
            case "teamId": if let v = d.string(p.value, what: "'teamId'") { config.team = v }
            case "coreData":
                guard let m = d.mapping(p.value, what: "'coreData'", allowed: ["modelVersion", "configuration"]) else { continue }
                var selection = config.model ?? ModelSelection()
                for q in m {
                    guard let v = d.string(q.value, what: "'coreData.\(q.name)'") else { continue }
                    if q.name == "modelVersion" { selection.version = v } else { selection.configuration = v }
                }
                config.model = selection
            case "swiftData":
                // docs/swiftdata.md, "Which models": the list replaces the reader's own choice.
                guard let m = d.mapping(p.value, what: "'swiftData'", allowed: ["models"]) else { continue }
                var selection = config.model ?? ModelSelection()
                for q in m {
                    let names = d.stringList(q.value, what: "'swiftData.models'").map { ModelName($0.0, at: d.location($0.1)) }
                    if names.isEmpty {
                        d.report(InputRules.invalidValue, "'swiftData.models' names no model", at: q.value,
                                 fix: "list the @Model classes that sync with CloudKit, like [Trip, Stop], or remove the key to read every one")
                    }
                    selection.models = names
                }
                config.model = selection
            default: break
            }
        }
        if d.hasErrors { throw InputError(d.diagnostics) }
        return config
    }

    /// A `promote:` setting that would let through a change production refuses (CK301-CK307,
    /// CK630): refused, so that `promote --check` can never pass what `promote --apply` and
    /// `migrate apply --env production` refuse.
    private static func refuseLowering(_ code: String, _ verb: String, _ node: YAMLNode, _ d: inout NodeDecoder) {
        d.report(InputRules.invalidValue, "promote: cannot \(verb) \(code): production refuses that change whatever ckschema.yaml says, so every command keeps it an error",
                 at: node, fix: "remove \(code) from 'promote:' and fix the change instead (docs/promotion.md says how)")
    }

    /// One `disable:` or `severity:` entry of the `lint:` or `promote:` section. The codes
    /// are checked against the rule catalog above this layer (`RuleCatalog.unknownCodes`).
    private static func ruleSetting(_ q: YAMLPair, section: String, into settings: inout RuleSettings,
                                    codes: inout [RuleCodeMention], _ d: inout NodeDecoder) {
        switch q.name {
        case "disable":
            for (code, node) in d.stringList(q.value, what: "'\(section).disable'") {
                codes.append(RuleCodeMention(code: code, location: d.location(node)))
                if section == "promote", ProductionRules.forbiddenCodes.contains(code) { refuseLowering(code, "disable", node, &d) }
                settings.disabled.insert(code)
            }
        case "severity":
            guard let sev = d.mapping(q.value, what: "'\(section).severity'") else { return }
            for s in sev {
                codes.append(RuleCodeMention(code: s.name, location: d.location(s.key)))
                if let v = d.enumValue(s.value, what: "severity", as: Severity.self) {
                    if section == "promote", v != .error, ProductionRules.forbiddenCodes.contains(s.name) { refuseLowering(s.name, "lower", s.key, &d) }
                    settings.severities[s.name] = v
                }
            }
        default: break
        }
    }
}


/// A rule code written in `ckschema.yaml`, and where.
public struct RuleCodeMention: Sendable, Hashable {
    public var code: String
    public var location: SourceLocation
}

/// A check `ckschema check` runs, as ckschema.yaml's `check:` list names it, in the order they run.
public enum CheckName: String, CaseIterable, Sendable {
    case lint, promote, validate, migrate, scan

    /// The check's name in the report (`check: passed (lint, promote, validate, migrations, scan)`).
    public var shown: String { self == .migrate ? "migrations" : rawValue }
}
