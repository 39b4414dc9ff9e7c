import CKSchema
import Foundation

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
        declared queries, deprecation) are counted, not checked. The plan is bound to its
        schemas as promote --apply binds it, with ckschema.yaml's promote: settings: a plan
        whose steps were edited, cut or added is refused (CK393, exit 1) before cktool runs.
        Without --plan the plan is computed with those settings. With --update, a passing
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
        let (exported, development) = try SchemaSource.loadPair(from: baselinePath, to: devPath, model: options.deploy.model.selection(config))
        // What the `.ckdb` cannot say, filled in as `promote --plan` filled it: from the store's
        // production, or (after `promote --apply`) from the production that deploy replaced.
        let storePath = Configuration.storePath(nil, config: config)
        let store = FileManager.default.fileExists(atPath: storePath) ? try Store(path: storePath, access: .read) : nil
        let baseline = try ProductionRecord.planned(exported, development: development, store: store,
                                                    plan: try options.plan.map { (p: String) throws(InputError) in try PromotionPlan.load(path: p).fromHash })
        // ckschema.yaml's promote: settings, as promote reads them: the plan file is bound to its
        // schemas (CK393 as --apply gives it, before cktool runs or anything is written), or
        // the plan is computed with them.
        let settings = config?.promote ?? RuleSettings()
        let plan: PromotionPlan
        if let path = options.plan {
            let bound = try PromotionPlan.bind(planAt: path, from: baseline, to: development, settings: settings)
            guard bound.refused.isEmpty else {
                io.conclude(bound.refused, format: options.deploy.format, command: name, failed: true)
                return .findings
            }
            plan = bound.plan
        } else {
            plan = PromotionPlan.production(from: baseline, to: development, settings: settings)
        }
        let session = try options.deploy.target.session(config: config)
        let live = try session.export(environment: options.environment)
        let result = ProductionVerifier.verify(steps: plan.steps, development: development, live: live.schema)
        let env = options.environment.rawValue, container = ControlCharacters.escaped(session.container)
        let format = options.deploy.format, structured = format == .json || format == .sarif
        func properties(updated: String?, message: String?) -> [(String, JSONValue)] {
            [("verify", .object([
                ("environment", .string(env)),
                ("container", .string(session.container)),
                ("checked", .int(result.checked)),
                ("unchecked", .int(result.unchecked)),
                ("updated", .optional(updated)),
                ("message", .optional(message)),
            ]))]
        }
        guard result.missing.isEmpty else {
            io.conclude(result.missing, format: format, command: name, failed: true, properties: properties(updated: nil, message: nil))
            return .findings
        }
        let line = "the \(env) environment of \(container) has every planned change (\(result.checked) checked"
            + (result.unchecked > 0 ? ", \(result.unchecked) not visible through cktool" : "") + ")"
        if !structured { io.write(line + "\n") }
        if options.update {
            try SchemaPuller.replace(baselinePath, with: live.data)
            if !structured { io.write("wrote the \(env) export to \(baselinePath)\n") }
        }
        if structured {
            io.conclude([], format: format, command: name, failed: false, properties: properties(updated: options.update ? baselinePath : nil, message: line))
        }
        return .success
    }
}
