import CKSchema

/// `ckschema verify --env production [--plan plan.json]`: after the Console's deploy, the
/// live schema has every planned change (`ProductionVerifier.verify`).
enum VerifyCommand: OptionsCommand {
    static let name = "verify"
    static let summary = "After the Console deploy, check through cktool that production has every change of the plan."
    static let help = """
        Pulls the environment's live schema ('cktool export-schema') and checks each change of
        the plan (--plan, else the plan from ckschema.yaml's production schema to SCHEMA, the
        development schema) against it: exit 0 when every one is there, exit 1 naming each
        change that is missing or different. Changes a .ckdb export cannot show (zones,
        declared queries, deprecation) are counted, not checked. With --update, a passing
        verify writes the export over the committed production schema, so the baseline stays
        true (like 'ckschema pull').

        example:
          ckschema verify --env production --plan plan.json
          ckschema verify --env production --update
        """

    static func run(_ options: Options, _ io: inout Output) throws -> ExitCode {
        let (config, devPath) = try options.deploy.development()
        let baselinePath = try SchemaArguments.production(nil, config: config)
        if options.update && !baselinePath.lowercased().hasSuffix(".ckdb") {
            throw UsageError("--update writes what CloudKit exports verbatim, and ckschema.yaml's production schema '\(baselinePath)' is not a .ckdb file")
        }
        let (baseline, development) = try SchemaSource.loadPair(from: baselinePath, to: devPath, model: options.deploy.model.selection(config))
        let plan: PromotionPlan
        if let path = options.plan {
            plan = try PromotionPlan.load(path: path)
            try plan.verify(from: baseline, to: development, file: path)
        } else {
            plan = PromotionPlan.compute(from: baseline, to: development, hashing: false)
        }
        let session = try options.deploy.target.session(config: config)
        let live = try session.export(environment: options.environment)
        let result = ProductionVerifier.verify(steps: plan.steps, development: development, live: live.schema)
        let env = options.environment.rawValue, container = ControlCharacters.escaped(session.container)
        guard result.missing.isEmpty else {
            io.conclude(result.missing, format: options.deploy.format, command: name, failed: true)
            return .findings
        }
        io.write("the \(env) environment of \(container) has every planned change (\(result.checked) checked"
                 + (result.unchecked > 0 ? ", \(result.unchecked) not visible through cktool" : "") + ")\n")
        if options.update {
            try SchemaPuller.replace(baselinePath, with: live.data)
            io.write("wrote the \(env) export to \(baselinePath)\n")
        }
        return .success
    }
}
