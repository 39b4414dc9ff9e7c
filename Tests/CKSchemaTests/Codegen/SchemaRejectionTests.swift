import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaCodegen

/// `generate swift`'s `CloudSchema.classify` (issue 34, point 5): the generated reader of
/// CloudKit's schema refusals, compiled from the generated text and run here (its pure part
/// needs neither CloudKit nor Foundation), over CloudKit's own messages as public threads
/// quote them. The `CKError` wrapper beside it is type-checked against the SDK stub with the
/// rest of the generated code (`GeneratedCodeCompileTests`).
@Suite(.serialized) struct SchemaRejectionTests {
    static let swiftc = Tool.find("swiftc")

    /// CloudKit's messages: (code, server code, message as the thread shows it, where).
    static let messages: [(code: Int, server: Int?, message: String, thread: String)] = [
        (12, 2006, #"<CKError 0x281459560: "Invalid Arguments" (12/2006); server message = "Cannot create or modify field 'order' in record 'Todo' in production schema"; uuid = E85A9EAC-DC87-445A-85A5-B546DF53EE86; container ID = "iCloud.com.xxx.xxx">"#,
         "github.com/caiyue1993/IceCream/issues/164"),
        (12, nil, "Cannot create or modify field 'isLive' in record 'WatchEntry' in production schema",
         "github.com/yattee/yattee/issues/979"),
        (12, nil, "Error saving record ... to server: Cannot create new type FavoriteTable in production schema",
         "github.com/TableProApp/TablePro/pull/2226"),
        (12, nil, "iCloud rejected 1 change(s). They stay on this device and will retry: Error saving record ... to server: Cannot create new type FavoriteTable in production schema",
         "github.com/TableProApp/TablePro/pull/2226 (the app's own wording around it)"),
        (12, 2015, #"<CKError 0x282649560: "Invalid Arguments" (12/2015); server message = "Field 'recordName' is not marked queryable"; uuid = 21FBC496-0B4F-41F7-AE95-F51205F57D0E; container ID = “”>"#,
         "github.com/caiyue1993/IceCream/issues/169"),
        (12, nil, "Field '___recordID' is not marked queryable",
         "github.com/DevMountain/Timeline/issues/11"),
        (12, nil, #"Error: Optional(12) = Optional("Field \'___recordID\' is not marked queryable")"#,
         "github.com/evermeer/EVCloudKitDao/issues/79"),
        (12, nil, "NSLocalizedDescription=Field '___createTime' is not marked sortable}, ErrorDescription: Field '___createTime' is not marked sortable]",
         "github.com/evermeer/EVCloudKitDao/issues/2"),
        // The type every share is: CloudKit's message for a missing type (above), as issue 34 quotes it.
        (12, 2006, "Cannot create new type cloudkit.share in production schema", "issue 34"),
        // Not schema refusals: another invalid-arguments message (BAD_REQUEST of CloudKit Web
        // Services, github.com/malhal/CloudKit-PHP/issues/4), another code, another server code.
        (12, nil, "Did not find field: 'recordName' in type: 'Poodle'", "github.com/malhal/CloudKit-PHP/issues/4"),
        (14, nil, "Cannot create or modify field 'order' in record 'Todo' in production schema", "code 14, serverRecordChanged"),
        (12, 2000, "Cannot create new type FavoriteTable in production schema", "server code 2000"),
    ]

    /// What the compiled `classify` prints for each message, one line each.
    static let expected = """
        fieldNotDeployed | Todo | order | production | deploy field 'order' of record type 'Todo' to production's schema (CloudKit Console: Deploy Schema Changes) before a build writes it: production never creates a field | Cannot create or modify field 'order' in record 'Todo' in production schema
        fieldNotDeployed | WatchEntry | isLive | production | deploy field 'isLive' of record type 'WatchEntry' to production's schema (CloudKit Console: Deploy Schema Changes) before a build writes it: production never creates a field | Cannot create or modify field 'isLive' in record 'WatchEntry' in production schema
        typeNotDeployed | FavoriteTable | - | production | deploy record type 'FavoriteTable' to production's schema (CloudKit Console: Deploy Schema Changes) before a build saves it: production never creates a type | Error saving record ... to server: Cannot create new type FavoriteTable in production schema
        typeNotDeployed | FavoriteTable | - | production | deploy record type 'FavoriteTable' to production's schema (CloudKit Console: Deploy Schema Changes) before a build saves it: production never creates a type | iCloud rejected 1 change(s). They stay on this device and will retry: Error saving record ... to server: Cannot create new type FavoriteTable in production schema
        notQueryable | - | recordName | - | add a QUERYABLE index on 'recordName' of the queried record type in the schema, and deploy it to production | Field 'recordName' is not marked queryable
        notQueryable | - | ___recordID | - | add a QUERYABLE index on recordName (___recordID) of the queried record type in the schema, and deploy it to production | Field '___recordID' is not marked queryable
        notQueryable | - | ___recordID | - | add a QUERYABLE index on recordName (___recordID) of the queried record type in the schema, and deploy it to production | Error: Optional(12) = Optional("Field '___recordID' is not marked queryable")
        notSortable | - | ___createTime | - | add a SORTABLE index on createdAt (___createTime) of the queried record type in the schema, and deploy it to production | NSLocalizedDescription=Field '___createTime' is not marked sortable}, ErrorDescription: Field '___createTime' is not marked sortable]
        typeNotDeployed | cloudkit.share | - | production | save one share in the development environment (CloudKit then creates cloudkit.share) and deploy the schema to production: production never creates a type | Cannot create new type cloudkit.share in production schema
        nil
        nil
        nil

        """

    @Test func theSharedFileCarriesTheReader() throws {
        let schema = try SchemaSource.load(path: Paths.fixture("codegen/everything.yaml"))
        let shared = try #require(SwiftGenerator.generate(schema, options: .init(namespace: "CloudSchema", source: "everything.yaml")).files.first)
        #expect(shared.text.contains(SwiftSupportFile.rejectionText(namespace: "CloudSchema", access: "public ")))
        #expect(shared.text.contains("public static func classify(_ error: any Error) -> SchemaRejection?"))
        #expect(shared.text.contains("#if canImport(CloudKit)"))
    }

    /// The generated text, compiled on its own (no CloudKit: the wrapper drops out) with a
    /// program that prints what it reads of each message.
    @Test(.enabled(if: swiftc != nil, "swiftc is not on PATH"))
    func classifyReadsCloudKitsOwnMessages() throws {
        let dir = try makeTempDir("ckschema-rejection")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // On macOS CloudKit exists, and the wrapper needs it imported.
        let reader = "#if canImport(CloudKit)\n  import CloudKit\n#endif\n" + SwiftSupportFile.rejectionText(namespace: "CloudSchema", access: "")
        try Data(reader.utf8).write(to: URL(fileURLWithPath: dir + "/Rejection.swift"))
        func literal(_ s: String) -> String {
            "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        let cases = Self.messages.map { "(\($0.code), \($0.server.map(String.init) ?? "nil"), \(literal($0.message)))" }.joined(separator: ",\n      ")
        let main = """
            enum CloudSchema {}

            @main enum Main {
              static func main() {
                let cases: [(Int, Int?, String)] = [
                  \(cases),
                ]
                for (code, server, message) in cases {
                  guard let r = CloudSchema.classify(code: code, serverCode: server, message: message) else { print("nil"); continue }
                  print([r.kind.rawValue, r.recordType ?? "-", r.field ?? "-", r.environment ?? "-", r.fix, r.message].joined(separator: " | "))
                }
              }
            }

            """
        try Data(main.utf8).write(to: URL(fileURLWithPath: dir + "/Main.swift"))
        let swiftc = try #require(Self.swiftc)
        let build = try Tool.run(swiftc, ["-swift-version", "6", "-parse-as-library", "-warnings-as-errors", "Rejection.swift", "Main.swift", "-o", "classify"], cwd: dir)
        #expect(build.code == 0, "\(build.stdout)\(build.stderr)")
        guard build.code == 0 else { return }
        let run = try Tool.run(dir + "/classify", [], cwd: dir)
        #expect(run.code == 0)
        #expect(run.stdout == Self.expected)
    }
}
