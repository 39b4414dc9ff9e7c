import Foundation
import Testing
import CKSchema

/// Promotion plans of real schema pairs from public repositories (`../shared/corpus/ckdb`),
/// read through the `.ckdb` parser. Every change is listed and classified.
@Suite(.enabled(if: Corpus.available, Corpus.skipNote))
struct RealPairsTests {
    static let corpus = URL(fileURLWithPath: Paths.corpus)

    private func plan(_ from: String, _ to: String) throws -> PromotionPlan {
        let a = try SchemaSource.load(path: Self.corpus.appendingPathComponent(from).path)
        let b = try SchemaSource.load(path: Self.corpus.appendingPathComponent(to).path)
        return PromotionPlan.compute(from: a, to: b)
    }

    /// `class code text` for each step.
    private func lines(_ plan: PromotionPlan) -> [String] {
        plan.steps.map { "\($0.changeClass.rawValue) \($0.code) \($0.change.description)" }
    }

    /// Apple's sample: v2 (the GitHub-action schema) adds the record type `Countries` and a
    /// QUERYABLE index on `Currencies.___recordID`. The new type is safe; the index on a type
    /// already in production is for review. Nothing is forbidden.
    @Test func appleCoinsV1ToV2() throws {
        let p = try plan("apple__sample-cloudkit-tooling__CKTool-JS_schema-mgmt_schemas_coins_v1.ckdb",
                         "apple__sample-cloudkit-tooling__CKTool-JS_github-action_schema.ckdb")
        #expect(lines(p) == [
            "safe CK300 + record type Countries",
            "safe CK300 + Countries.countryCode string [queryable, sortable]",
            "safe CK300 + Countries.name string",
            "safe CK300 + grant Countries _creator: write",
            "safe CK300 + grant Countries _icloud: create",
            "safe CK300 + grant Countries _world: read",
            "review CK311 + index Currencies.recordName queryable",
        ])
        // A .ckdb source: the system field is named as the file names it.
        #expect(p.steps[6].reason == "adds a queryable index on 'Currencies.___recordID' to record type 'Currencies', which is already in production: the index must also cover the records already saved there")
        // Each step points at the v2 file, where the change was made.
        let added = try #require(p.steps.first?.change.origin.location)
        #expect(added.file.hasSuffix("github-action_schema.ckdb"))
        #expect(added.line == 48)
        #expect(!p.fails(on: .forbidden))
        #expect(p.fails(on: .review))
    }

    /// moolah-native: the production baseline against the schema the team was about to
    /// deploy. Reordered record types and re-aligned columns are not changes; what is left
    /// is one new record type and twelve new fields, all safe.
    @Test func moolahBaselineToDevelopment() throws {
        let p = try plan("ajsutton__moolah-native__CloudKit_schema-prod-baseline.ckdb", "ajsutton__moolah-native__CloudKit_schema.ckdb")
        #expect(lines(p) == [
            "safe CK300 + AccountRecord.exchangeProvider string [queryable, searchable, sortable]",
            "safe CK300 + record type DismissedTransferPairRecord",
            "safe CK300 + index DismissedTransferPairRecord.recordName queryable",
            "safe CK300 + DismissedTransferPairRecord.dismissedAt timestamp [queryable, sortable]",
            "safe CK300 + DismissedTransferPairRecord.transactionIdA string [queryable, searchable, sortable]",
            "safe CK300 + DismissedTransferPairRecord.transactionIdB string [queryable, searchable, sortable]",
            "safe CK300 + grant DismissedTransferPairRecord _creator: write",
            "safe CK300 + grant DismissedTransferPairRecord _icloud: create",
            "safe CK300 + grant DismissedTransferPairRecord _world: read",
            "safe CK300 + TransactionRecord.importOriginIncomingBankReference string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingImportSessionId string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingImportedAt timestamp [queryable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingParserIdentifier string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingRawAmount string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingRawBalance string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingRawDescription string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginIncomingSourceFilename string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.importOriginKind string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.transferSuggestionCounterpartId string [queryable, searchable, sortable]",
            "safe CK300 + TransactionRecord.transferSuggestionSuggestedAt timestamp [queryable, sortable]",
        ])
        #expect(p.steps[0].change.origin.location?.line == 11)
        #expect(!p.fails(on: .review))
    }

    /// The reverse of the moolah pair is what a deploy of the old schema over the new one
    /// would do: every addition becomes a forbidden deletion.
    @Test func moolahReversedIsForbidden() throws {
        let p = try plan("ajsutton__moolah-native__CloudKit_schema.ckdb", "ajsutton__moolah-native__CloudKit_schema-prod-baseline.ckdb")
        #expect(p.count(.forbidden) == 13)
        #expect(p.steps.filter { $0.changeClass == .forbidden }.map(\.code).sorted().first == "CK301")
        #expect(p.steps.contains { $0.reason == "record type 'DismissedTransferPairRecord' is in production and cannot be deleted" })
        #expect(p.steps.contains { $0.reason == "field 'AccountRecord.exchangeProvider' is in production and cannot be deleted" })
    }

    /// Every corpus file diffed against itself: no change, whatever its layout.
    @Test(arguments: [
        "apple__sample-cloudkit-tooling__CKTool-JS_github-action_schema.ckdb",
        "ajsutton__moolah-native__CloudKit_schema.ckdb",
        "robbiet480__Dispatch__CloudKit_schema.ckdb",
        "boxed__Done-and-done__cloudkit_schema.ckdb",
    ])
    func aSchemaAgainstItselfHasNoChanges(file: String) throws {
        #expect(try plan(file, file).steps.isEmpty)
    }

    /// Every corpus file against its own YAML import (`ckschema import`): no change either
    /// way, so a production `.ckdb` export diffs cleanly against the YAML it became.
    @Test func everyCorpusFileDiffsCleanAgainstItsYAMLImport() throws {
        let dir = try makeTempDir("ckschema-import-diff")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".ckdb") }.sorted()
        #expect(files.count >= 15)
        for file in files {
            let ckdb = Self.corpus.appendingPathComponent(file).path
            let yaml = dir + "/" + file + ".yaml"
            let run = try runCLI(["import", ckdb, "-o", yaml])
            try #require(run.code == 0, "\(file): \(run.stderr)")
            let a = try SchemaSource.load(path: ckdb), b = try SchemaSource.load(path: yaml)
            #expect(SchemaDiff.compute(from: a, to: b).changes.map(\.description) == [], "\(file)")
            #expect(SchemaDiff.compute(from: b, to: a).changes.map(\.description) == [], "\(file)")
        }
    }
}
