import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaModel
@testable import CKSchemaDiagnostics
@testable import CKSchemaCoreData
@testable import CKSchemaPredicate
@testable import CKSchemaStore
@testable import CKSchemaRuntime
@testable import CKSchemaSwift

/// The inputs that crashed a reader once (Fuzz/Seeds, issue #24) go through what the fuzz
/// targets FuzzCoreData, FuzzPredicate and FuzzSwift run, on every `swift test`: each is read or
/// refused with a located diagnostic, and the calls the targets make keep compiling.
@Suite struct FuzzSeedTests {
    static func seeds(_ target: String) -> [String] {
        let dir = Paths.root + "/Fuzz/Seeds/" + target
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).sorted().map { dir + "/" + $0 }
    }

    @Test func coreDataSeedsAreReadOrRefused() throws {
        let seeds = Self.seeds("FuzzCoreData")
        #expect(seeds.count >= 3)
        for path in seeds {
            let data = try #require(FileManager.default.contents(atPath: path))
            do {
                let model = try CoreDataReader.parse(data, file: "contents", versionName: "Fuzz")
                _ = try? CoreDataMapping.schema(for: model, configuration: nil)
            } catch {
                #expect(error.diagnostics.allSatisfy { $0.code == "CK601" && $0.location != nil }, "\(path): \(error.diagnostics)")
            }
        }
    }

    /// Issue 35: types nested past the reader's bound and invalid UTF-8 in a string literal.
    @Test func swiftSeedsAreReadOrRefused() throws {
        let seeds = Self.seeds("FuzzSwift")
        #expect(seeds.count >= 4)
        for path in seeds {
            let bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            do {
                let model = try SwiftModelReader.read([("fuzz.swift", bytes)], path: "fuzz.swift")
                _ = try? CoreDataMapping.schema(for: model)
            } catch {
                #expect(error.diagnostics.allSatisfy { ["CK640", "CK003"].contains($0.code) && $0.location != nil }, "\(path): \(error.diagnostics)")
            }
        }
    }

    @Test func predicateSeedsAreParsedOrRefused() throws {
        let seeds = Self.seeds("FuzzPredicate")
        #expect(seeds.count >= 4)
        var type = RecordType(name: "Note")
        type.fields = [
            Field(name: "title", type: FieldType(.string), indexes: [.queryable, .searchable, .sortable]),
            Field(name: "mood", type: FieldType(.int64), indexes: [.queryable, .sortable]),
            Field(name: "tags", type: FieldType(.string, isList: true), indexes: [.queryable]),
            Field(name: "place", type: FieldType(.location), indexes: [.queryable]),
        ]
        for path in seeds {
            let text = try read(path)
            do {
                let predicate = try PredicateParser.parse(text)
                _ = PredicateChecker.check(predicate, on: type, needIndexes: true)
                if let c = StoreQuery.condition(predicate, type: type, env: .development, searchTables: ["title": "fts:title"]) {
                    #expect(c.bindings.count <= 32_766)
                }
            } catch {
                #expect(error.rule.code.hasPrefix("CK70"), "\(path): \(error)")
            }
        }
    }
}
