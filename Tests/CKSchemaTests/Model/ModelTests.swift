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

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func knownDigests(input: String, digest: String) {
        #expect(SHA256.hex(input) == digest)
    }
}
