import Testing
@testable import CKSchema

@Suite struct ModelTests {
    @Test func fieldTypeSpellingRoundTrips() throws {
        for text in ["string", "int64", "list<string>", "number", "number<int64>", "list<reference>"] {
            let t = try #require(FieldType(parsing: text))
            #expect(t.description == text)
        }
        #expect(FieldType(parsing: "strng") == nil)
        #expect(FieldType(parsing: "number<string>") == nil)
    }

    @Test func originIsNotPartOfEquality() {
        let a = Field(name: "t", type: FieldType(.string), origin: Origin(SourceLocation(file: "a", line: 1, column: 1)))
        let b = Field(name: "t", type: FieldType(.string), origin: Origin(SourceLocation(file: "b", line: 9, column: 3)))
        #expect(a == b)
    }
}
