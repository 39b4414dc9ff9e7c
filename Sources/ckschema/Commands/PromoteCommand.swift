import CKSchema
import Foundation

/// `ckschema promote [FROM] [TO]`: the promotion plan, and with `--check` the CI gate.
enum PromoteCommand: Command {
    static let name = "promote"
    static let summary = "Plan the promotion to production: each change safe, review or forbidden, with the fix."
    static let usage = "ckschema promote [FROM] [TO] [--check] [--plan PATH] [--verify-plan PATH] [--apply PLAN [--store PATH]] [--fail-on review|forbidden] [--format text|json|github|sarif|markdown]"
    static let options = [
        OptionSpec(name: "check", short: nil, takesValue: false,
                   help: "the CI gate: exit 1 if a change is forbidden (or, with --fail-on review, needs review); reports only those"),
        OptionSpec(name: "plan", short: nil, takesValue: true, help: "write the plan as JSON (with both schemas' SHA-256)",
                   valueName: "PATH", isPath: true),
        OptionSpec(name: "verify-plan", short: nil, takesValue: true,
                   help: "refuse (exit 2) a plan file that is not JSON, is from another format version, or was computed from other schemas",
                   valueName: "PATH", isPath: true),
        OptionSpec(name: "apply", short: nil, takesValue: true,
                   help: "deploy the development schema to the local store's production environment, as the CloudKit Console does: schema only, no records; refused (exit 2) when PLAN is stale or has a forbidden step, or the store's production schema is not FROM",
                   valueName: "PLAN", isPath: true),
        OptionSpec(name: "store", short: nil, takesValue: true, help: "the store for --apply",
                   valueName: "PATH", defaultValue: "ckschema.yaml's store", isPath: true),
        CommonOptions.format,
        OptionSpec(name: "fail-on", short: nil, takesValue: true, help: "lowest class that fails --check",
                   values: ["review", "forbidden"], defaultValue: "forbidden, or review when ckschema.yaml's lint.failOn is warning"),
        CommonOptions.config,
    ] + CommonOptions.model
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

    static func run(_ args: ParsedArguments, _ io: inout Output) throws -> ExitCode {
        let format = try CommonOptions.outputFormat(args)
        let config = try CommonOptions.configuration(args)
        let failOn = try changeClass(args.value("fail-on") ?? (config?.failOn == .warning ? "review" : nil))
        let (from, to) = try schemas(args, config: config)
        if let path = args.value("verify-plan") {
            let plan = try PromotionPlan.load(path: path)
            try plan.verify(from: from, to: to, file: path)
        }
        if let path = args.value("apply") { return try apply(planPath: path, from: from, to: to, args: args, config: config, format: format, io: &io) }
        // Hashes are needed only for a plan file; emitting both schemas is most of a plan's cost.
        let result = Promoter.check(from: from, to: to, lint: config?.lint ?? LintConfiguration(), promote: config?.promote ?? LintConfiguration(), hashing: args.value("plan") != nil)
        guard let plan = result.plan else {
            io.conclude(result.lintErrors, format: format, command: name, failed: true, steps: ["lint"])
            return .findings
        }
        if let path = args.value("plan") {
            try InputFile.write(plan.jsonData, to: path)
        }
        let check = args.flag("check")
        let code: ExitCode = check && plan.fails(on: failOn) ? .findings : .success
        if check {
            io.conclude(plan.diagnostics(minimum: .review), format: format, command: name, failed: code != .success)
        } else {
            io.report(plan.diagnostics(minimum: .safe), format: format, command: name)
        }
        return code
    }

    /// `--apply PLAN`: `StoreDeployer.apply` checks the plan against both schemas and deploys TO.
    static func apply(planPath: String, from: Schema, to: Schema, args: ParsedArguments, config: Configuration?, format: OutputFormat, io: inout Output) throws -> ExitCode {
        let storePath = args.value("store") ?? config?.store ?? Configuration.defaultStore
        let migrations = try? MigrationFolder.load(path: config?.migrations ?? Configuration.defaultMigrations)
        let result = try StoreDeployer.apply(planAt: planPath, from: from, to: to, store: try Store(path: storePath), migrations: migrations)
        io.write("deployed the development schema to production in \(storePath) (\(result.changes) change\(result.changes == 1 ? "" : "s"), schema only; records untouched)\n")
        io.write("production schema \(result.fromHash.prefix(12)) -> \(result.toHash.prefix(12))\n")
        return .success
    }

    /// `--fail-on`: review or forbidden (warning and error are accepted as their severities).
    static func changeClass(_ value: String?) throws(UsageError) -> ChangeClass {
        switch value {
        case nil, "forbidden", "error": return .forbidden
        case "review", "warning": return .review
        default: throw UsageError("'\(value ?? "")' is not a class for --fail-on; use review or forbidden")
        }
    }

    /// FROM and TO: the positionals, else the production and development schemas of ckschema.yaml.
    static func schemas(_ args: ParsedArguments) throws -> (Schema, Schema) {
        try schemas(args, config: try CommonOptions.configuration(args))
    }

    static func schemas(_ args: ParsedArguments, config: Configuration?) throws -> (Schema, Schema) {
        let p = args.positionals
        if p.count > 2 { throw UsageError("expected at most two schemas, FROM and TO; got \(p.count)") }
        let fromPath = try SchemaArguments.production(p.first, config: config)
        let toPath = try SchemaArguments.development(p.count > 1 ? p[1] : nil, config: config)
        return try SchemaSource.loadPair(from: fromPath, to: toPath, model: CommonOptions.modelSelection(args, config: config))
    }
}
