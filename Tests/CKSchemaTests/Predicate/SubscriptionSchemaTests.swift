import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaYAML
@testable import CKSchemaCKDB
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaLinter
@testable import CKSchemaDiff
@testable import CKSchemaConfig
@testable import CKSchemaRecords
@testable import CKSchemaCKTool
@testable import CKSchemaProduction
@testable import CKSchemaWire
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaMigrations
@testable import CKSchemaCheck

/// `subscriptions:` and `predicate:` in the YAML format: decoded, emitted canonically, kept by the store.
@Suite struct SubscriptionSchemaTests {
    static let yaml = """
        ckschema: 1
        zones:
          Notes: { database: private, capabilities: [fetchChanges] }
        recordTypes:
          Note:
            zone: Notes
            fields:
              title: { type: string, indexes: [queryable] }
              mood: { type: int64, indexes: [queryable] }
        queries:
          - { name: happy, recordType: Note, predicate: "mood > 3" }
        subscriptions:
          happy-notes:                       # the subscription ID
            type: query
            database: private
            recordType: Note
            predicate: "mood > 3"
            firesOn: [delete, create, update]
            desiredKeys: [title, mood]
          notes-zone: { type: zone, database: private, zone: Notes }

        """

    @Test func decodesTheIssuesExample() throws {
        let schema = try SchemaSource.parseYAML(Data(Self.yaml.utf8), file: "s.yaml").schema
        #expect(schema.subscriptions.map(\.id) == ["happy-notes", "notes-zone"])
        let happy = try #require(schema.subscription(withID: "happy-notes"))
        #expect(happy.kind == .query && happy.database == .private && happy.recordType == "Note")
        #expect(happy.predicate == "mood > 3")
        #expect(happy.firesOn == [.create, .update, .delete])
        #expect(happy.desiredKeys == ["title", "mood"])
        // The predicate's first character: line 17, after the opening quote.
        #expect(happy.predicateOrigin.location == SourceLocation(file: "s.yaml", line: 17, column: 17))
        #expect(schema.subscription(withID: "notes-zone")?.zone == "Notes")
        #expect(schema.queries.first?.predicate == "mood > 3")
        #expect(Linter().lint(schema).isEmpty)
    }

    @Test func emitsOneCanonicalLinePerSubscriptionAndKeepsComments() throws {
        let file = try SchemaSource.parseYAML(Data(Self.yaml.utf8), file: "s.yaml")
        let text = SchemaFormatter.format(file)
        #expect(text.hasSuffix("""
            subscriptions:
              happy-notes: { type: query, database: private, recordType: Note, predicate: "mood > 3", firesOn: [create, update, delete], desiredKeys: [title, mood] }  # the subscription ID
              notes-zone: { type: zone, database: private, zone: Notes }

            """), "\(text)")
        #expect(text.contains("- { name: happy, recordType: Note, predicate: \"mood > 3\" }"))
        let again = try SchemaSource.parseYAML(Data(text.utf8), file: "s.yaml")
        #expect(again.schema == file.schema)
    }

    @Test func storeKeepsSubscriptionsAndPredicates() throws {
        let schema = try SchemaSource.parseYAML(Data(Self.yaml.utf8), file: "s.yaml").schema
        let back = try StoreSchemaCodec.decode(StoreSchemaCodec.encode(schema))
        #expect(back.subscriptions == schema.subscriptions)
        #expect(back.queries.first?.predicate == "mood > 3")
    }

    @Test(arguments: [
        ("  x: { type: zone, database: private, predicate: \"a == 1\" }", "CK011", "a zone subscription has no 'predicate'"),
        ("  x: { database: private }", "CK013", "subscription 'x' has no 'type'"),
        ("  x: { type: query, recordType: Note, firesOn: [create] }", "CK013", "subscription 'x' has no 'database'"),
        ("  x: { type: push, database: private }", "CK012", "'push' is not a valid subscription type"),
        ("  x: { type: query, database: private, firesOn: [created] }", "CK012", "'created' is not a firesOn event; did you mean 'create'?"),
    ])
    func malformedSubscriptionsAreInputErrors(line: String, code: String, words: String) {
        let text = "ckschema: 1\nsubscriptions:\n" + line + "\n"
        do {
            _ = try SchemaSource.parseYAML(Data(text.utf8), file: "s.yaml")
            Issue.record("parsed")
        } catch {
            #expect(error.diagnostics.contains { $0.code == code && $0.message.contains(words) }, "\(error.diagnostics.map(\.message))")
        }
    }
}
