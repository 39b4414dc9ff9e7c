import CKSchema
import Foundation

/// `ckschema promote [FROM] [TO]`: the promotion plan, and with `--check` the CI gate.
enum PromoteCommand: OptionsCommand {
    static let name = "promote"
    static let summary = "Plan the promotion to production: each change safe, review or forbidden, with the fix."
    static let help = """
        FROM and TO are schema sources, as for 'ckschema diff' (default: the production and
        development schemas named in ckschema.yaml). The development schema is linted and
        the promotion planned in one run; lint errors and the plan's findings are reported
        together. Each change gets a class, reported with a severity:
          safe       production accepts it (a note)
          review     production accepts it, with a consequence to look at (a warning)
          forbidden  production refuses it (an error), with the fix
        Exit 1 when an error is reported (a lint error or a forbidden change), with or
        without --check. A plan binds its steps: --verify-plan and --apply refuse a plan
        whose steps differ from what the two schemas give. Rules: docs/promotion.md.

        example:
          ckschema promote --check --format github
          ckschema promote --plan plan.json
          ckschema promote --apply plan.json
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try CommonOptions.configuration(options.configPath)
        let (production, to) = try options.schemas.load(config: config)
        let storePath = Configuration.storePath(options.store, config: config)
        // A `.ckdb` production cannot say zones, `requires:` or queries: the plan takes them
        // from the store's production (else the development schema), and lists only real changes.
        // A plan file is bound to the reading it was computed from (a plan written before the
        // store existed was filled in from the development schema).
        let existing = FileManager.default.fileExists(atPath: storePath) ? try Store(path: storePath, access: .read) : nil
        func from(plan path: String?) throws(InputError) -> Schema {
            try ProductionRecord.planned(production, development: to, store: existing, plan: try path.map { (p: String) throws(InputError) in try PromotionPlan.load(path: p).fromHash })
        }
        let settings = config?.promote ?? RuleSettings()
        if let path = options.verifyPlan {
            let bound = try PromotionPlan.bind(planAt: path, from: try from(plan: path), to: to, settings: settings)
            if !bound.refused.isEmpty {
                io.conclude(bound.refused, format: options.format, command: name, failed: true)
                return .findings
            }
        }
        if let planPath = options.apply {
            let migrations = try MigrationFolder.load(path: Configuration.migrationsPath(nil, config: config))
            // The store is opened (created when absent) only for a plan that can deploy, and a
            // store this run created is taken away again when the deploy then fails: a refused
            // command writes no file (issue 35).
            let created = existing == nil
            let storeFolder = (storePath as NSString).deletingLastPathComponent
            let folderExisted = storeFolder.isEmpty || FileManager.default.fileExists(atPath: storeFolder)
            let r: StoreDeployer.Result
            do {
                r = try StoreDeployer.apply(planAt: planPath, from: try from(plan: planPath), to: to, settings: settings,
                                            opening: { () throws(InputError) -> Store in try Store(path: storePath) }, migrations: migrations)
            } catch {
                if created { Self.removeCreatedStore(storePath, folder: folderExisted ? nil : storeFolder) }
                throw error
            }
            if !r.refused.isEmpty {
                io.conclude(r.refused, format: options.format, command: name, failed: true)
                return .findings
            }
            let message = r.changes > 0
                ? "deployed the development schema to production in \(ControlCharacters.escaped(storePath)) (\(r.changes) change\(r.changes == 1 ? "" : "s"), schema only; records untouched)"
                : "production in \(ControlCharacters.escaped(storePath)) already has the development schema: nothing deployed; production schema \(r.fromHash.prefix(12)) (unchanged)"
            // With --format json or sarif standard output is one document, as push and verify
            // write it (docs/output.md): what the text lines say is its `apply` member.
            if options.format == .json || options.format == .sarif {
                io.conclude([], format: options.format, command: name, failed: false, properties: [("apply", .object([
                    ("plan", .string(planPath)),
                    ("store", .string(storePath)),
                    ("changes", .array(r.steps.map { .string($0.change.description) })),
                    ("fromHash", .string(r.fromHash)),
                    ("toHash", .string(r.changes > 0 ? r.toHash : r.fromHash)),
                    ("message", .string(message)),
                ]))])
                return .success
            }
            io.write(message + "\n")
            guard r.changes > 0 else { return .success }
            for step in r.steps { io.write("  \(ControlCharacters.escaped(step.change.description))\n") }
            io.write("production schema \(r.fromHash.prefix(12)) -> \(r.toHash.prefix(12))\n")
            return .success
        }
        // Hashes are needed only for a plan file; emitting both schemas is most of a plan's cost.
        // An app that shares needs cloudkit.share (and a model's CD_moveReceipt) in production.
        let result = Promoter.check(from: try from(plan: nil), to: to, lint: config?.lint ?? RuleSettings(), promote: settings, hashing: options.plan != nil,
                                    sharing: Check.sharingReason(config))
        // A plan file is never written from a schema with lint errors: it would be deployable.
        if let path = options.plan, result.lintErrors.isEmpty {
            let plan = result.plan
            try InputFile.write(plan.jsonData, to: path)
            io.error("wrote \(ControlCharacters.escaped(path)) (\(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s"): \(plan.count(.safe)) safe, \(plan.count(.review)) review, \(plan.count(.forbidden)) forbidden)\n")
        } else if let path = options.plan {
            io.error("did not write \(ControlCharacters.escaped(path)): the development schema has lint errors\n")
        }
        guard options.check else {
            let shown = result.diagnostics(minimum: .safe)
            io.report(shown, format: options.format, command: name)
            // The Console's deploy is the one human step: its click path and dialog, to compare.
            if options.format == .markdown {
                io.write(ConsoleGuide.markdown(result.plan, container: config?.container ?? to.container, planFile: options.plan))
            }
            return shown.contains(atLeast: .error) ? .findings : .success
        }
        let failOn = options.failOn ?? ChangeClass(severity: config?.failOn ?? .error)
        let code: ExitCode = result.fails(on: failOn) ? .findings : .success
        // The steps that fail the gate are shown: the safe ones too with --fail-on note.
        io.conclude(result.diagnostics(minimum: min(failOn, .review)), format: options.format, command: name, failed: code != .success)
        return code
    }

    /// Removes the store file (and its journal) a refused `promote --apply` created, and its
    /// folder when this run created that too and it is empty.
    private static func removeCreatedStore(_ path: String, folder: String?) {
        let fm = FileManager.default
        for p in [path, path + "-journal", path + "-wal", path + "-shm"] where fm.fileExists(atPath: p) { try? fm.removeItem(atPath: p) }
        if let folder, (try? fm.contentsOfDirectory(atPath: folder))?.isEmpty == true { try? fm.removeItem(atPath: folder) }
    }
}
