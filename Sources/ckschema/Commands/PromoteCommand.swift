import CKSchema

/// `ckschema promote [FROM] [TO]`: the promotion plan, and with `--check` the CI gate.
enum PromoteCommand: OptionsCommand {
    static let name = "promote"
    static let summary = "Plan the promotion to production: each change safe, review or forbidden, with the fix."
    static let usage = "ckschema promote [FROM] [TO] [--check] [--plan PATH] [--verify-plan PATH] [--apply PLAN [--store PATH]] [--fail-on review|forbidden] [--format text|json|github|sarif|markdown]"
    static let help = """
        FROM and TO are schema sources, as for 'ckschema diff' (default: the production and
        development schemas named in ckschema.yaml). The development schema is linted first;
        a lint error is reported and no plan is made. Each change then gets a class:
          safe       production accepts it (reported as a note)
          review     production accepts it, with a consequence to look at (a warning)
          forbidden  production refuses it (an error), with the fix
        Rules, classes and sources: docs/promotion.md.

        example:
          ckschema promote --check --format github
          ckschema promote --plan plan.json
          ckschema promote --apply plan.json
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let config = try CommonOptions.configuration(options.configPath)
        let (from, to) = try options.schemas.load(config: config)
        if let path = options.verifyPlan { try PromotionPlan.load(path: path).verify(from: from, to: to, file: path) }
        if let planPath = options.apply {
            // `StoreDeployer.apply` checks the plan against both schemas and the store, then deploys TO.
            let storePath = Configuration.storePath(options.store, config: config)
            let migrations = try? MigrationFolder.load(path: Configuration.migrationsPath(nil, config: config))
            let r = try StoreDeployer.apply(planAt: planPath, from: from, to: to, store: try Store(path: storePath), migrations: migrations)
            io.write("deployed the development schema to production in \(storePath) (\(r.changes) change\(r.changes == 1 ? "" : "s"), schema only; records untouched)\n")
            io.write("production schema \(r.fromHash.prefix(12)) -> \(r.toHash.prefix(12))\n")
            return .success
        }
        // Hashes are needed only for a plan file; emitting both schemas is most of a plan's cost.
        let result = Promoter.check(from: from, to: to, lint: config?.lint ?? LintConfiguration(),
                                    promote: config?.promote ?? LintConfiguration(), hashing: options.plan != nil)
        guard let plan = result.plan else {
            io.conclude(result.lintErrors, format: options.format, command: name, failed: true, steps: ["lint"])
            return .findings
        }
        if let path = options.plan { try InputFile.write(plan.jsonData, to: path) }
        let failOn = options.failOn ?? (config?.failOn == .warning ? .review : .forbidden)
        guard options.check else {
            io.report(plan.diagnostics(minimum: .safe), format: options.format, command: name)
            // The Console's deploy is the one human step: its click path and dialog, to compare.
            if options.format == .markdown { io.write(ConsoleGuide.markdown(plan, container: config?.container ?? to.container, planFile: options.plan)) }
            return .success
        }
        let code: ExitCode = plan.fails(on: failOn) ? .findings : .success
        io.conclude(plan.diagnostics(minimum: .review), format: options.format, command: name, failed: code != .success)
        return code
    }
}
