import CKSchema
import Foundation

/// What `pull` and `check --pull` need to run cktool: team, container and the tool.
struct PullOptions: ParsableOptions {
    static let teamID = Option.text("team-id", help: "the Apple developer team", valueName: "T", default: "ckschema.yaml's team")
    static let containerID = Option.text("container-id", help: "the iCloud container", valueName: "C",
                                         default: "ckschema.yaml's container, else the development schema's")
    static let cktool = Option.path("cktool", help: "run this executable with cktool's arguments instead of 'xcrun cktool'",
                                    default: "$CKSCHEMA_CKTOOL, else xcrun cktool")
    static let timeout = Option.number("timeout", help: "stop cktool after S seconds", valueName: "S",
                                       default: String(format: "%g", SchemaPuller.defaultTimeout),
                                       valid: { (s: Double) in s > 0 && s <= 86_400 },
                                       message: { "--timeout needs a number of seconds from 0 to 86400, not '\($0)'" })
    static let specs = [teamID.spec, containerID.spec, cktool.spec, timeout.spec]
    var team: String?
    var container: String?
    var tool: String?
    var seconds: Double?

    init(_ arguments: ParsedArguments) throws(UsageError) {
        team = try arguments.value(Self.teamID)
        container = try arguments.value(Self.containerID)
        tool = try arguments.value(Self.cktool)
        seconds = try arguments.value(Self.timeout)
    }

    /// Resolves team, container, destination and cktool from the options and ckschema.yaml, then pulls.
    func pull(environment: Environment, output: String?, config: Configuration?) throws -> SchemaPuller.Result {
        guard let team = team ?? config?.team else {
            throw UsageError("no team: pass --team-id T, or set 'team:' in ckschema.yaml (your Apple developer team identifier)")
        }
        guard let container = try container ?? config?.container ?? Self.developmentContainer(config) else {
            throw UsageError("no container: pass --container-id iCloud.com.example.App, or set 'container:' in ckschema.yaml or the development schema")
        }
        let configured = environment == .production ? config?.productionSchema : config?.developmentSchema
        guard let destination = output ?? configured.flatMap({ $0.lowercased().hasSuffix(".ckdb") ? $0 : nil }) else {
            throw UsageError(configured == nil
                ? "no file to write: pass -o FILE, or name the \(environment.rawValue) schema in ckschema.yaml"
                : "the \(environment.rawValue) schema in ckschema.yaml is not a .ckdb file, and pull writes what CloudKit exports verbatim; pass -o FILE.ckdb, or configure schemas.\(environment.rawValue) as a .ckdb file")
        }
        let path = tool ?? ProcessInfo.processInfo.environment["CKSCHEMA_CKTOOL"].flatMap { $0.isEmpty ? nil : $0 }
        return try SchemaPuller.pull(.init(team: team, container: container, environment: environment, destination: destination,
                                           tool: path.map { .executable($0) } ?? .xcrun, timeout: seconds ?? SchemaPuller.defaultTimeout))
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
