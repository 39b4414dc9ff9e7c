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

/// Subscriptions travel to the store like record types: generated, applied, replayed, evaluated.
@Suite struct SubscriptionMigrationTests {
    static let step = """
        steps:
          - addSubscription: { id: popular, type: query, database: private, recordType: Note, predicate: "views > 10", firesOn: [create, update], desiredKeys: [title] }
          - addSubscription: { id: notes-zone, type: zone, database: private, zone: Notes }

        """

    @Test func applyPutsSubscriptionsInTheEnvironmentAndTheStoreEvaluatesThem() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        try sb.write("0003_subscriptions.yaml", Self.step)
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .development))
        let schema = try store.schema(.development)
        #expect(schema.subscriptions.map(\.id) == ["popular", "notes-zone"])
        #expect(schema.subscription(withID: "popular")?.predicate == "views > 10")
        #expect(try sb.folder().replay().subscriptions.map(\.id) == ["popular", "notes-zone"])
        let file = sb.root + "/n.ndjson"
        try Data("""
            {"recordName":"a","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"A","type":"STRING"},"views":{"value":11,"type":"INT64"}}}
            {"recordName":"b","recordType":"Note","zoneID":{"zoneName":"Notes"},"fields":{"title":{"value":"B","type":"STRING"},"views":{"value":3,"type":"INT64"}}}

            """.utf8).write(to: URL(fileURLWithPath: file))
        _ = try RecordImporter.importFiles([file], into: store, options: .init())
        var lines: [String] = []
        try NotificationLog.read(store: store, environment: .development) { lines.append($0) }
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""subscriptionID":"popular","queryNotificationReason":"recordCreated","recordID":{"recordName":"a","zoneName":"Notes"},"recordFields":{"title":{"value":"A","type":"STRING"}}"#) == true)
        // Production has no subscriptions until a migration or a deploy puts them there: nothing fires.
        #expect(try store.schema(.production).subscriptions.isEmpty)
    }

    @Test func dataStepsFireQueryNotifications() throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        try sb.write("0003_subscriptions.yaml", """
            steps:
              - addSubscription: { id: counted, type: query, database: private, recordType: Note, predicate: "wordCount >= 0", firesOn: [update] }

            """)
        try sb.write("0004_backfill.yaml", "steps:\n  - backfill: { recordType: Note, field: wordCount, expression: \"length(body)\" }\n")
        let store = try sb.open()
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .development, targetVersion: 3))
        try MigrationSandbox.insert(store, type: "Note", name: "n1", fields: #"{"title":"T","body":"four"}"#)
        _ = try Migrator.apply(folder: try sb.folder(), store: store, options: .init(environment: .development))
        var lines: [String] = []
        try NotificationLog.read(store: store, environment: .development) { lines.append($0) }
        #expect(lines.count == 1)
        #expect(lines.first?.contains(#""subscriptionID":"counted","queryNotificationReason":"recordUpdated""#) == true)
    }

    @Test func migrateNewWritesSubscriptionStepsThatReplayExactly() throws {
        let old = try SchemaSource.load(path: Paths.fixture("runtime/schema.yaml"))
        var new = old
        new.subscriptions.removeAll { $0.id == "everything" }
        new.subscriptions[0].predicate = "mood > 4"
        new.subscriptions.append(Subscription(id: "memos", kind: .query, database: .private, recordType: "Memo", predicate: "text BEGINSWITH \"buy\"", firesOn: [.create]))
        let (steps, refused) = MigrationGenerator.steps(from: old, to: new)
        #expect(refused.isEmpty)
        #expect(steps.map(\.summary) == [
            "removeSubscription happy-notes", "removeSubscription everything",
            "addSubscription happy-notes (query on Note)", "addSubscription memos (query on Memo)",
        ])
        let yaml = MigrationWriter.yaml(steps: steps, description: nil)
        #expect(yaml.contains(#"  - addSubscription: { id: memos, type: query, database: private, recordType: Memo, predicate: "text BEGINSWITH \"buy\"", firesOn: [create] }"#))
        var replayed = old
        let m = try Migration.parse(Data(yaml.utf8), path: "0002_x.yaml")
        try SchemaChanger.apply(m, to: &replayed)
        #expect(replayed.storeNormalized == new.storeNormalized)
    }

    @Test(arguments: [
        ("  - addSubscription: { id: x, type: query, database: private, recordType: Nope, firesOn: [create] }", "record type 'Nope' does not exist"),
        ("  - addSubscription: { id: x, type: query, database: private, recordType: Note, predicate: \"views == 'a'\", firesOn: [create] }", "[CK702]"),
        ("  - removeSubscription: { id: ghost }", "subscription 'ghost' does not exist"),
    ])
    func badSubscriptionStepsAreRefused(step: String, words: String) throws {
        let sb = try MigrationSandbox(fixtureCount: 2)
        defer { sb.cleanup() }
        try sb.write("0003_bad.yaml", "steps:\n" + step + "\n")
        do {
            _ = try sb.folder().replay()
            Issue.record("replayed")
        } catch let error as InputError {
            #expect(error.diagnostics.contains { $0.message.contains(words) }, "\(error.diagnostics.map(\.message))")
        }
    }
}

/// `diff` and `promote` show subscriptions; adding one is safe, removing or changing one is for review.
@Suite struct SubscriptionDiffTests {
    @Test func diffAndPromoteClassifySubscriptionChanges() throws {
        let old = try SchemaSource.load(path: Paths.fixture("runtime/schema.yaml"))
        var new = old
        new.subscriptions.removeAll { $0.id == "everything" }
        new.subscriptions[0].desiredKeys = ["title"]
        new.subscriptions.append(Subscription(id: "memos", kind: .query, database: .private, recordType: "Memo", predicate: "text == 'x'", firesOn: [.create]))
        let diff = SchemaDiff.compute(from: old, to: new)
        #expect(diff.changes.map(\.description) == [
            "~ subscription happy-notes: { type: query, database: private, recordType: Note, predicate: \"mood > 3\", firesOn: [create, update, delete], desiredKeys: [title, mood] } -> { type: query, database: private, recordType: Note, predicate: \"mood > 3\", firesOn: [create, update, delete], desiredKeys: [title] }",
            "- subscription everything { type: database, database: private }",
            "+ subscription memos { type: query, database: private, recordType: Memo, predicate: \"text == 'x'\", firesOn: [create] }",
        ])
        let plan = PromotionPlan.compute(from: old, to: new)
        let byID = Dictionary(plan.steps.map { ($0.change.subscription ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID["memos"]?.changeClass == .safe)
        #expect(byID["everything"]?.changeClass == .review)
        #expect(byID["everything"]?.code == "CK750")
        #expect(byID["happy-notes"]?.changeClass == .review)
        // The JSON form carries the subscription ID.
        let json = String(decoding: try JSONEncoder().encode(diff.changes[1]), as: UTF8.self)
        #expect(json.contains(#""subscription":"everything""#))
        let back = try JSONDecoder().decode(SchemaChange.self, from: Data(json.utf8))
        #expect(back.subscription == "everything")
    }
}

/// `promote --apply` deploys development's subscriptions; the store then evaluates them in production.
@Suite struct SubscriptionDeployTests {
    @Test func deployPutsSubscriptionsInProduction() throws {
        let sb = try RuntimeSandbox(importRecords: false)
        defer { sb.cleanup() }
        var production = try sb.store.schema(.production)
        production.subscriptions = []
        try sb.store.db.transaction { try sb.store.writeSchema(production, env: .production) }
        let development = try sb.store.schema(.development)
        _ = try StoreDeployer.deploy(expectedProduction: production, development: development, store: sb.store)
        #expect(try sb.store.schema(.production).subscriptions.map(\.id) == development.subscriptions.map(\.id))
        _ = try RecordImporter.importFiles([Paths.fixture("runtime/notes.ndjson")], into: sb.store, options: .init(environment: .production))
        var lines: [String] = []
        try NotificationLog.read(store: sb.store, environment: .production) { lines.append($0) }
        #expect(lines.count == 7)
        var development0: [String] = []
        try NotificationLog.read(store: sb.store, environment: .development) { development0.append($0) }
        #expect(development0.isEmpty)
    }
}
