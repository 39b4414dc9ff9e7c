import Foundation
import CKSchemaConfig
import CKSchemaDiagnostics
import CKSchemaLinter
import CKSchemaMigrations
import CKSchemaModel
import CKSchemaProduction
import CKSchemaRecords
import CKSchemaScan
import CKSchemaStore
import CKSchemaDiff

/// `ckschema check`, the CI gate, as a library entry point: every check `ckschema.yaml`
/// configures, each schema source loaded once, and what each found.
///
/// The checks run in the configuration's order (its `check:` list, or every check whose
/// inputs it names): lint the development schema, plan the promotion from production,
/// validate the configured record files, and compare the migrations with the store.
public enum Check {
    /// What one run of the gate found.
    public struct Report: Sendable {
        /// Every finding of every check, in check order.
        public var diagnostics: [Diagnostic] = []
        /// The checks that ran (`lint`, `promote`, `validate`, `migrations`): a check whose
        /// inputs are not configured does not run.
        public var ran: [String] = []
        /// True when a check could not do its job (an unreadable or malformed input): exit 2.
        public var failed = false
        /// The checks that could not do their job.
        public var couldNotRun: [String] = []
        /// Each check's own findings, by name as in `ran`.
        public var findings: [String: [Diagnostic]] = [:]

        /// True when the gate fails at `failOn`: a check could not run, or a finding is at
        /// or above it.
        public func fails(on failOn: Severity) -> Bool { failed || diagnostics.contains(atLeast: failOn) }

        /// The checks that failed at `failOn`, in run order: the closing line names them.
        public func failedChecks(on failOn: Severity) -> [String] {
            ran.filter { couldNotRun.contains($0) || (findings[$0] ?? []).contains(atLeast: failOn) }
        }
    }

    /// Runs every configured check.
    public static func run(_ config: Configuration) -> Report {
        var report = Report()
        let schemas = SchemaCache(model: config.model ?? ModelSelection(), config: config)
        for check in config.checks ?? CheckName.allCases {
            guard let result = step(check, config, schemas) else { continue }
            let shown = check.shown
            report.ran.append(shown)
            report.diagnostics += result.diagnostics
            report.findings[shown] = result.diagnostics
            if result.failed { report.couldNotRun.append(shown) }
            report.failed = report.failed || result.failed
        }
        return report
    }

    /// One check's result: its findings, or the input error that stopped it.
    struct StepResult {
        var diagnostics: [Diagnostic] = []
        var failed = false
    }

    /// The schema sources of one run, each loaded once. A source that cannot be read is
    /// reported by the first step that needs it; later steps are skipped silently, so one
    /// malformed file is one set of diagnostics, not one per check.
    final class SchemaCache {
        private var loaded: [String: Schema?] = [:]
        private var linted: [String: [Diagnostic]] = [:]
        /// The Core Data model version and configuration ckschema.yaml names.
        let model: ModelSelection
        /// ckschema.yaml: a schema it names that does not exist is reported at the line naming it.
        let config: Configuration?

        init(model: ModelSelection, config: Configuration? = nil) {
            self.model = model
            self.config = config
        }

        /// The lint findings of the schema at `path`, computed once: the lint step reports
        /// them, and the promote step's plan waits on their errors.
        func lint(_ path: String, _ schema: Schema, _ configuration: RuleSettings) -> [Diagnostic] {
            if let known = linted[path] { return known }
            let found = Linter(configuration: configuration).lint(schema)
            linted[path] = found
            return found
        }

        private var filled: [String: Schema?] = [:]

        /// The production at `production` filled in from the store (`Check.planned`), computed
        /// once: the promote and scan steps both read it, and the store is opened once. Nil when
        /// the store could not be read (its errors go into `result` the first time).
        func planned(_ exported: Schema, production: String, development: Schema, at developmentPath: String,
                     _ config: Configuration, _ result: inout StepResult) -> Schema? {
            let key = production + "\u{0}" + developmentPath
            if let known = filled[key] {
                if known == nil { result.failed = true }
                return known
            }
            let schema = Check.planned(exported, development: development, config, &result)
            filled[key] = .some(schema)
            return schema
        }

        private var scanned: (step: StepResult, sharing: (what: String, at: SourceLocation)?)?

        /// The scan of `code:` (`Check.scan`), run once: the scan step reports it, and the
        /// promote step reads the code's first sharing call from it (CK320, CK321), so `check`
        /// lexes the app's sources once.
        func scan(_ config: Configuration) -> (step: StepResult, sharing: (what: String, at: SourceLocation)?) {
            if let known = scanned { return known }
            let found = Check.scan(config, self)
            scanned = found
            return found
        }

        /// The schema, or nil when it failed (its errors go into `result` the first time).
        func schema(_ path: String, _ result: inout StepResult) -> Schema? {
            if let known = loaded[path] {
                if known == nil { result.failed = true }
                return known
            }
            do {
                let schema = try SchemaSource.load(path: path, model: model)
                loaded[path] = schema
                return schema
            } catch {
                loaded[path] = .some(nil)
                result.diagnostics += config?.locatingMissingSchemas(error.diagnostics) ?? error.diagnostics
                result.failed = true
                return nil
            }
        }
    }

    /// Runs one check by name; nil means its inputs are not configured.
    static func step(_ check: CheckName, _ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        switch check {
        case .lint: lintStep(config, schemas)
        case .promote: promoteStep(config, schemas)
        case .validate: validateStep(config, schemas)
        case .migrate: migrateStep(config, schemas)
        case .scan: scanStep(config, schemas)
        }
    }

    /// Production -> development: forbidden changes are errors, review ones warnings. Lint
    /// errors stop the plan; the lint step reports them, unless it is not configured.
    static func promoteStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        guard let dev = config.developmentSchema, let prod = config.productionSchema else { return nil }
        var step = StepResult()
        let exported = schemas.schema(prod, &step), to = schemas.schema(dev, &step)
        guard let exported, let to else { return step }
        guard let from = schemas.planned(exported, production: prod, development: to, at: dev, config, &step) else { return step }
        // The code's sharing call from the scan when the scan step runs (the sources lexed once).
        let scanRuns = (config.checks ?? CheckName.allCases).contains(.scan)
        let sharing = sharingReason(config) { scanRuns ? schemas.scan(config).sharing : CodeScan.sharingUse(paths: $0) }
        let result = Promoter.check(from: from, to: to, hashing: false, promote: config.promote, sharing: sharing) { schemas.lint(dev, $0, config.lint) }
        let lintRuns = (config.checks ?? CheckName.allCases).contains(.lint)
        step.diagnostics += (lintRuns ? [] : result.lintErrors) + result.plan.diagnostics(minimum: .review) + result.sharing
        return step
    }

    /// Why the app shares records, as the production gate reads it (`promote --check` and
    /// `check`, CK320 and CK321): ckschema.yaml's `sharing: true`, else the first sharing call
    /// in the Swift sources of `code:`; nil with `sharing: false`, or when neither says so.
    public static func sharingReason(_ config: Configuration?) -> SharingRequirement.Reason? {
        sharingReason(config) { CodeScan.sharingUse(paths: $0) }
    }

    /// `sharingReason`, the code's first sharing call found by `codeUse` (given `code:`).
    static func sharingReason(_ config: Configuration?, codeUse: ([String]) -> (what: String, at: SourceLocation)?) -> SharingRequirement.Reason? {
        guard let config else { return nil }
        if let sharing = config.sharing {
            return sharing ? SharingRequirement.Reason("ckschema.yaml's 'sharing: true'", at: config.sharingLocation) : nil
        }
        guard !config.code.isEmpty, let use = codeUse(config.code) else { return nil }
        return SharingRequirement.Reason(use.what, at: use.at)
    }

    /// A `.ckdb` production with its zones, `requires:` and queries filled in, as `promote
    /// --plan` fills them in (`ProductionRecord.planned`: from the store's production, else the
    /// development schema); nil, with the diagnostics in `step`, when the store cannot be read.
    static func planned(_ exported: Schema, development: Schema, _ config: Configuration, _ step: inout StepResult) -> Schema? {
        do {
            let store = FileManager.default.fileExists(atPath: config.store) ? try Store(path: config.store, access: .read) : nil
            return try ProductionRecord.planned(exported, development: development, store: store)
        } catch {
            step.diagnostics += error.diagnostics
            step.failed = true
            return nil
        }
    }

    /// The app's Swift sources (`code:`) against production (else the development schema). A
    /// `.ckdb` production is filled in as the promote step fills it in: the zones and queries a
    /// `.ckdb` cannot say are production's, not missing (issue 32).
    static func scanStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        guard !config.code.isEmpty, (config.productionSchema ?? config.developmentSchema) != nil else { return nil }
        return schemas.scan(config).step
    }

    /// The scan step's work (through `SchemaCache.scan`, once a run): its findings, and the
    /// code's first sharing call; nil sharing when the schema could not be read (no scan ran).
    static func scan(_ config: Configuration, _ schemas: SchemaCache) -> (step: StepResult, sharing: (what: String, at: SourceLocation)?) {
        var step = StepResult()
        guard let path = config.productionSchema ?? config.developmentSchema, var schema = schemas.schema(path, &step) else { return (step, nil) }
        if path == config.productionSchema, schema.notation.value == .ckdb, let dev = config.developmentSchema, let development = schemas.schema(dev, &step) {
            guard let filled = schemas.planned(schema, production: path, development: development, at: dev, config, &step) else { return (step, nil) }
            schema = filled
        }
        let result = CodeScan.run(paths: config.code, schema: schema, environment: config.productionSchema != nil ? .production : .development, lint: config.lint, container: config.container)
        step.diagnostics = result.diagnostics
        step.failed = result.failed
        return (step, result.sharing)
    }

    static func lintStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        guard let dev = config.developmentSchema else { return nil }
        var step = StepResult()
        if let schema = schemas.schema(dev, &step) { step.diagnostics += schemas.lint(dev, schema, config.lint) }
        return step
    }

    /// The record files ckschema.yaml lists, each against its environment's schema.
    /// Each schema comes from the run's cache: a malformed schema is reported once, by the
    /// first step that reads it.
    static func validateStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        guard !config.records.isEmpty else { return nil }
        var diagnostics: [Diagnostic] = []
        var step = StepResult()
        do {
            let summary = try RecordValidator.validateConfigured(config, loaded: { schemas.schema($0, &step) }) { diagnostics.append($0) }
            return StepResult(diagnostics: step.diagnostics + diagnostics, failed: step.failed || summary.unreadableFiles > 0 || summary.malformedRecords > 0)
        } catch {
            return StepResult(diagnostics: step.diagnostics + diagnostics + error.diagnostics, failed: true)
        }
    }

    /// `migrate status` for the development environment: sum file, changed/missing migrations, drift.
    /// Configured when the folder has migrations, or when a store exists (its history may
    /// name migrations whose files are gone: CK531).
    static func migrateStep(_ config: Configuration, _ schemas: SchemaCache) -> StepResult? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: config.migrations)) ?? []
        guard names.contains(where: { Migration.parseFileName($0) != nil }) || FileManager.default.fileExists(atPath: config.store) else { return nil }
        var step = StepResult()
        var dev: Schema?
        if let path = config.developmentSchema {
            dev = schemas.schema(path, &step)
            if dev == nil { return step }
        }
        do {
            let folder = try MigrationFolder.load(path: config.migrations)
            let store = FileManager.default.fileExists(atPath: config.store) ? try Store(path: config.store, access: .read) : nil
            // The store's production kept honest too: empty, or not what ckschema.yaml says production is.
            var loaded = StepResult()
            let status = try ProductionStatus.check(folder: folder, store: store, environment: .development, development: dev,
                                                    productionPath: config.productionSchema, loadProduction: { schemas.schema($0, &loaded) })
            step.diagnostics += status.migrations.diagnostics + loaded.diagnostics + status.production
            step.failed = step.failed || loaded.failed
        } catch {
            step.diagnostics += error.diagnostics
            step.failed = true
        }
        return step
    }
}
