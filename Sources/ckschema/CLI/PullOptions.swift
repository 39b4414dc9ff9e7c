import CKSchema
import Foundation

/// What `pull`, `push`, `reset`, `verify` and `check --pull` need to run cktool: team,
/// container, the tool and where the management token is.
struct PullOptions: ParsableOptions {
    @Opt(.text("team-id", help: "the Apple developer team", valueName: "T", default: "ckschema.yaml's team, else $CLOUDKIT_TEAM_ID"))
    var team: String?
    @Opt(.text("container-id", help: "the iCloud container", valueName: "C", default: "ckschema.yaml's container, else the development schema's"))
    var container: String?
    @Opt(.path("cktool", help: "run this executable with cktool's arguments instead of 'xcrun cktool'", default: "$CKSCHEMA_CKTOOL, else xcrun cktool"))
    var tool: String?
    @Opt(.number("timeout", help: "stop cktool after S seconds", valueName: "S", default: String(format: "%g", SchemaPuller.defaultTimeout),
                 valid: { (s: Double) in s > 0 && s <= 86_400 }, message: { "--timeout needs a number of seconds from 0 to 86400, not '\($0)'" }))
    var seconds: Double?
    @Opt(.text("token-env", help: "read the CloudKit management token from this environment variable; it reaches cktool only through its environment, never its arguments",
               valueName: "NAME", default: "CLOUDKIT_MANAGEMENT_TOKEN, else the token cktool saved in the keychain"))
    var tokenVariable: String?

    /// cktool for the container: team, container, tool and token from the options, ckschema.yaml
    /// and the environment (`CLOUDKIT_TEAM_ID`, `CKSCHEMA_CKTOOL`, the token's variable).
    func session(config: Configuration?) throws -> CKToolSession {
        let env = ProcessInfo.processInfo.environment
        guard let team = team ?? config?.team ?? env["CLOUDKIT_TEAM_ID"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw UsageError("no team: pass --team-id T, or set 'team:' in ckschema.yaml or CLOUDKIT_TEAM_ID (your Apple developer team identifier)")
        }
        guard let container = try container ?? config?.container ?? Self.developmentContainer(config) else {
            throw UsageError("no container: pass --container-id iCloud.com.example.App, or set 'container:' in ckschema.yaml or the development schema")
        }
        let path = tool ?? env["CKSCHEMA_CKTOOL"].flatMap { $0.isEmpty ? nil : $0 }
        return CKToolSession(team: team, container: container, tool: path.map { .executable($0) } ?? .xcrun,
                             token: env[tokenVariable ?? CKToolSession.tokenVariable], timeout: seconds ?? SchemaPuller.defaultTimeout)
    }

    /// Resolves team, container, destination and cktool from the options and ckschema.yaml, then pulls.
    func pull(environment: Environment, output: String?, config: Configuration?) throws -> SchemaPuller.Result {
        let session = try session(config: config)
        let configured = config?.schema(for: environment)
        guard let destination = output ?? configured.flatMap({ $0.lowercased().hasSuffix(".ckdb") ? $0 : nil }) else {
            throw UsageError(configured == nil
                ? "no file to write: pass -o FILE, or name the \(environment.rawValue) schema in ckschema.yaml"
                : "the \(environment.rawValue) schema in ckschema.yaml is not a .ckdb file, and pull writes what CloudKit exports verbatim; pass -o FILE.ckdb, or configure schemas.\(environment.rawValue) as a .ckdb file")
        }
        return try SchemaPuller.pull(.init(session: session, environment: environment, destination: destination))
    }

    /// The development schema's `container:`, when ckschema.yaml names a readable one.
    static func developmentContainer(_ config: Configuration?) throws -> String? {
        guard let dev = config?.developmentSchema else { return nil }
        return try SchemaSource.load(path: dev).container
    }

    /// What a pull did, in one line.
    static func message(_ r: SchemaPuller.Result, environment: Environment) -> String {
        let what = "\(r.recordTypes) record type" + (r.recordTypes == 1 ? "" : "s")
        return r.changed
            ? "pulled the \(environment.rawValue) schema (\(what), \(r.bytes) bytes) to \(r.destination)\n"
            : "\(r.destination) is up to date with the \(environment.rawValue) schema (\(what))\n"
    }
}
