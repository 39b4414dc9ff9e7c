import CKSchemaModel

/// Codes for getting the live schema from CloudKit through Apple's cktool (CK80x), and
/// for the identifiers the tool passes to it. They make the executable exit 2.
public enum PullRules {
    // Apple: cktool ships with Xcode 13 and later and runs through `xcrun cktool`; it needs a
    // CloudKit management token saved with `xcrun cktool save-token --type management`
    // (`xcrun cktool --help`; WWDC21 "Meet CloudKit Console"; github.com/apple/sample-cloudkit-tooling).
    public static let cktoolMissing = RuleInfo(code: "CK801", name: "cktool-unavailable", summary: "Apple's cktool cannot be run: no xcrun (Linux, or no Xcode), or the --cktool / CKSCHEMA_CKTOOL path is not an executable.", defaultSeverity: .error,
                                               source: "Apple, cktool (`xcrun cktool --help`): ships with Xcode 13 and later; WWDC21 \"Meet CloudKit Console\"; github.com/apple/sample-cloudkit-tooling")
    public static let cktoolFailed = RuleInfo(code: "CK802", name: "cktool-failed", summary: "A cktool command (export-schema, validate-schema, import-schema, reset-schema) failed, was stopped at --timeout or for too much output (no management token, an unknown team or container, no network, production refusing an import); its own message is shown, escaped, and the token never.", defaultSeverity: .error,
                                              source: "Apple, `cktool export-schema` and `cktool save-token --type management` (`xcrun cktool --help`)")
    public static let exportMalformed = RuleInfo(code: "CK803", name: "pulled-schema-malformed", summary: "The schema cktool exported does not parse as CloudKit Schema Language; nothing was written and the old file is kept.", defaultSeverity: .error,
                                                 source: "Apple, CloudKit Schema Language (\"Integrating a Text-Based Schema into Your Workflow\"), the form `cktool export-schema` writes")
    // Apple: "Container identifiers ... begin with iCloud." and use reverse DNS
    // (CloudKit Console, "Create a container"; Xcode Signing & Capabilities, iCloud).
    public static let containerIdentifier = RuleInfo(code: "CK804", name: "invalid-container-identifier", summary: "A container identifier is not 'iCloud.' followed by a reverse-DNS name (iCloud.com.example.App).", defaultSeverity: .error,
                                                     source: "Apple, Xcode Help \"Configure iCloud services\": container identifiers begin with `iCloud.` and use reverse-DNS notation")

    // Apple: `cktool validate-schema` answers "❌ Schema validation failed: Encountered ...
    // at line L, column C" for a schema the server refuses, and `import-schema` refuses the
    // same schema (cktool man page; apple/sample-cloudkit-tooling).
    public static let serverRefused = RuleInfo(code: "CK810", name: "server-refused-schema", summary: "CloudKit's own validation (cktool validate-schema or import-schema) refused the schema push sent; reported at the line of the schema source that produced the .ckdb line cktool names, with cktool's message.", defaultSeverity: .error,
                                               source: "Apple, `cktool validate-schema` (\"❌ Schema validation failed: Encountered ... at line L, column C\") and `cktool import-schema` (`xcrun cktool --help`; github.com/apple/sample-cloudkit-tooling)")
    // Apple: "Deploying the schema copies its record types, fields, and indexes to the
    // production environment" ("Deploying an iCloud Container's Schema"); export-schema
    // --environment production shows what production holds.
    public static let productionLacksChange = RuleInfo(code: "CK811", name: "production-lacks-planned-change", summary: "After the Console deploy, the production schema cktool exports lacks a change of the plan (or has it in another form): the deploy did not happen, or not from this development schema.", defaultSeverity: .error,
                                                       source: "Apple, \"Deploying an iCloud Container's Schema\" (CloudKit Console, Deploy Schema Changes copies record types, fields and indexes to production); `cktool export-schema --environment production`")

    // Apple: a team ID is a 10-character identifier of capital letters and digits (Apple
    // Developer account, Membership details; Xcode's DEVELOPMENT_TEAM).
    public static let teamIdentifier = RuleInfo(code: "CK805", name: "invalid-team-identifier", summary: "A team identifier is not 10 capital letters and digits (ABCDE12345); it is refused before it reaches cktool's command line.", defaultSeverity: .error,
                                                source: "Apple Developer account, Membership details: Team ID (10 characters)")

    public static let all: [RuleInfo] = [cktoolMissing, cktoolFailed, exportMalformed, containerIdentifier, teamIdentifier, serverRefused, productionLacksChange]
}
