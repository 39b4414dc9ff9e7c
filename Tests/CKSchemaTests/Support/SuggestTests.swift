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

/// "Did you mean" is the same on every run, whatever order the candidates come in.
@Suite struct SuggestTests {
    @Test func tiesGoToTheFirstNameInCodePointOrder() {
        let names = ["Trop", "Trap", "Trup", "Trep"]
        for order in [names, names.reversed(), names.sorted(), Array(Set(names))] {
            #expect(Suggest.closest(to: "Trip", in: order) == "Trap")
        }
        #expect(Suggest.closest(to: "ind", in: ["indexes", "indexed", "indexes2"].shuffled()) == "indexed")
        #expect(Suggest.closest(to: "Zebra", in: ["Trip"]) == nil)
    }
}
