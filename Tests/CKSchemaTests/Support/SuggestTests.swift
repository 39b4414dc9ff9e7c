import Testing
@testable import CKSchema

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
