import CKSchemaConfig

/// Codes for getting the live schema from CloudKit through Apple's cktool (CK80x), and
/// for the identifiers the tool passes to it. They make the executable exit 2.
public enum PullRules {
    // Apple: cktool ships with Xcode 13 and later and runs through `xcrun cktool`; it needs a
    // CloudKit management token saved with `xcrun cktool save-token --type management`
    // (`xcrun cktool --help`; WWDC21 "Meet CloudKit Console"; github.com/apple/sample-cloudkit-tooling).
    public static let cktoolMissing = RuleInfo(code: "CK801", name: "cktool-unavailable", summary: "Apple's cktool cannot be run: no xcrun (Linux, or no Xcode), or the --cktool / CKSCHEMA_CKTOOL path is not an executable.", defaultSeverity: .error,
                                               source: "Apple, cktool (xcrun cktool --help): ships with Xcode 13 and later")
    public static let cktoolFailed = RuleInfo(code: "CK802", name: "cktool-failed", summary: "cktool export-schema failed (no management token, an unknown team or container, no network); its own message is shown.", defaultSeverity: .error,
                                              source: "Apple, cktool export-schema and save-token --type management (xcrun cktool --help)")
    public static let exportMalformed = RuleInfo(code: "CK803", name: "pulled-schema-malformed", summary: "The schema cktool exported does not parse as CloudKit Schema Language; nothing was written and the old file is kept.", defaultSeverity: .error,
                                                 source: "Apple, CloudKit Schema Language (cktool export-schema output)")
    // Apple: "Container identifiers ... begin with iCloud." and use reverse DNS
    // (CloudKit Console, "Create a container"; Xcode Signing & Capabilities, iCloud).
    public static let containerIdentifier = RuleInfo(code: "CK804", name: "invalid-container-identifier", summary: "A container identifier is not 'iCloud.' followed by a reverse-DNS name (iCloud.com.example.App).", defaultSeverity: .error,
                                                     source: "Apple, Xcode Help: Configure iCloud services (container identifiers begin with iCloud.)")

    // Apple: a team ID is a 10-character identifier of capital letters and digits (Apple
    // Developer account, Membership details; Xcode's DEVELOPMENT_TEAM).
    public static let teamIdentifier = RuleInfo(code: "CK805", name: "invalid-team-identifier", summary: "A team identifier is not 10 capital letters and digits (ABCDE12345); it is refused before it reaches cktool's command line.", defaultSeverity: .error,
                                                source: "Apple Developer account, Membership details: Team ID (10 characters)")

    public static let all: [RuleInfo] = [cktoolMissing, cktoolFailed, exportMalformed, containerIdentifier, teamIdentifier]
}
