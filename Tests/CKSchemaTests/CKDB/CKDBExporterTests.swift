import Foundation
import Testing
import CKSchema

@Suite struct CKDBExporterTests {
    func body(of type: String, in text: String) -> String {
        guard let start = text.range(of: "    RECORD TYPE \(type) (\n") else { return "" }
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "    );\n")?.lowerBound ?? rest.endIndex)])
    }

    /// cktool writes one line per role, permissions merged READ, CREATE, WRITE, roles by
    /// name (Dispatch's export: `GRANT READ TO "_world",` then `GRANT CREATE, WRITE TO moderator`).
    @Test func grantsAreMergedPerRoleAsCktoolWritesThem() {
        let schema = Schema(roles: [Role(name: "moderator")], recordTypes: [
            RecordType(name: "Q", grants: [
                Grant(role: "_world", permissions: [.read]),
                Grant(role: "moderator", permissions: [.read, .create, .write]),
                Grant(role: "_creator", permissions: [.read, .write]),
            ]),
        ])
        let text = CKDBExporter.export(schema).text
        #expect(text.hasPrefix("DEFINE SCHEMA\n\n    CREATE ROLE moderator;\n\n    RECORD TYPE Q (\n"))
        #expect(body(of: "Q", in: text).hasSuffix("""
                    "___recordID"   REFERENCE,
                    GRANT READ, WRITE TO "_creator",
                    GRANT READ TO "_world",
                    GRANT READ, CREATE, WRITE TO moderator

            """))
    }

    @Test func namesAreQuotedOnlyWhenNeededAndPaddedTogether() {
        let schema = Schema(recordTypes: [
            RecordType(name: "cloudkit.share", fields: [
                Field(name: "grant", type: FieldType(.string)),
                Field(name: "cloudkit.title", type: FieldType(.string)),
                Field(name: "CD_x", type: FieldType(.int64), indexes: [.sortable, .queryable]),
                Field(name: "zeta", type: FieldType(.number, preferred: .double)),
                Field(name: "tags", type: .list(.string), isEncrypted: true),
            ]),
        ])
        let text = CKDBExporter.export(schema).text
        #expect(body(of: "\"cloudkit.share\"", in: text) == """
                    CD_x             INT64 QUERYABLE SORTABLE,
                    "___createTime"  TIMESTAMP,
                    "___createdBy"   REFERENCE,
                    "___etag"        STRING,
                    "___modTime"     TIMESTAMP,
                    "___modifiedBy"  REFERENCE,
                    "___recordID"    REFERENCE,
                    "cloudkit.title" STRING,
                    "grant"          STRING,
                    tags             LIST<ENCRYPTED STRING>,
                    zeta             NUMBER PREFERRED AS DOUBLE

            """)
        // And it reads back to the same model.
        let again = try? CKDBParser.parse(text, file: "x.ckdb")
        #expect(again == CKDBExporter.cktoolForm(schema))
    }

    @Test func usersIsAddedOnlyWhenMissing() {
        let empty = CKDBExporter.export(Schema())
        #expect(empty.text == """
            DEFINE SCHEMA

                RECORD TYPE Users (
                    "___createTime" TIMESTAMP,
                    "___createdBy"  REFERENCE,
                    "___etag"       STRING,
                    "___modTime"    TIMESTAMP,
                    "___modifiedBy" REFERENCE,
                    "___recordID"   REFERENCE QUERYABLE,
                    roles           LIST<INT64>,
                    GRANT WRITE TO "_creator",
                    GRANT READ TO "_world"
                );

            """)
        #expect(empty.diagnostics.map(\.code) == ["CK222"])
        #expect(empty.diagnostics.first?.severity == .note)
        let withUsers = CKDBExporter.export(Schema(recordTypes: [RecordType(name: "Users", fields: [Field(name: "roles", type: .list(.int64))])]))
        #expect(withUsers.diagnostics.isEmpty)
        #expect(!withUsers.text.contains("GRANT"))
    }

    @Test func whatCannotBeExpressedIsWarnedAbout() {
        let loc = SourceLocation(file: "s.yaml", line: 7, column: 5)
        let schema = Schema(
            container: "iCloud.com.example.App",
            zones: [Zone(name: "Notes")],
            recordTypes: [
                RecordType(name: "Note", zone: "Notes", description: "a note", isDeprecated: true, fields: [
                    Field(name: "secret", type: FieldType(.string), isEncrypted: true, indexes: [.queryable], origin: Origin(loc)),
                    Field(name: "owner", type: FieldType(.reference), isEncrypted: true, referenceTarget: "Users"),
                    Field(name: "old", type: FieldType(.string), isDeprecated: true, description: "retired"),
                ]),
                CKDBExporter.defaultUsersType,
            ],
            queries: [DeclaredQuery(recordType: "Note", filter: ["old"])])
        let (text, diagnostics) = CKDBExporter.export(schema)
        #expect(text.contains("        secret          ENCRYPTED STRING\n"))
        #expect(text.contains("        owner           REFERENCE,\n"))
        // A deprecated field keeps the convention's comment on the line above it.
        #expect(text.contains("        // DEPRECATED\n        old             STRING,\n"))
        let messages = diagnostics.map { "\($0.code) \($0.severity.rawValue): \($0.message)" }
        #expect(messages == [
            "CK220 warning: the container iCloud.com.example.App is not part of a .ckdb file; it is left out",
            "CK220 warning: zones cannot be expressed in .ckdb; left out: Notes",
            "CK220 warning: declared queries cannot be expressed in .ckdb; left out: Note(filter: old)",
            "CK221 warning: field Note.secret is encrypted and cannot be QUERYABLE; the export leaves the index out",
            "CK221 warning: field Note.owner is marked encrypted, but REFERENCE cannot be ENCRYPTED in .ckdb; it is exported without ENCRYPTED",
            "CK220 warning: the zone, database or required zone capabilities of a record type cannot be expressed in .ckdb (record types are container-wide); left out for: Note",
            "CK220 warning: a deprecated record type cannot be marked in .ckdb (fields get a `// DEPRECATED` comment); exported as an ordinary record type: Note",
            "CK220 warning: reference targets and delete actions cannot be expressed in .ckdb (a REFERENCE names no type); left out for: Note.owner",
            "CK220 warning: descriptions cannot be expressed in .ckdb; left out for: Note, Note.old",
        ])
        #expect(diagnostics.first { $0.message.contains("secret") }?.location == loc)
    }

    @Test func unwritableNamesAreErrors() {
        let schema = Schema(recordTypes: [RecordType(name: "A", fields: [Field(name: "say \"hi\"", type: FieldType(.string))]), CKDBExporter.defaultUsersType])
        let diagnostics = CKDBExporter.export(schema).diagnostics
        #expect(diagnostics.map(\.code) == ["CK223"])
        #expect(diagnostics.contains(atLeast: .error))
    }

    @Test func cktoolFormOrdersGrantsAsTheExportWritesThem() {
        let type = RecordType(name: "T", grants: [
            Grant(role: "_world", permissions: [.read]),
            Grant(role: "b", permissions: [.create]),
            Grant(role: "a", permissions: [.create, .read]),
            Grant(role: "_creator", permissions: [.write, .read]),
        ])
        let form = CKDBExporter.cktoolForm(Schema(recordTypes: [type]))
        #expect(form.recordTypes[0].grants.map(\.role) == ["_creator", "_world", "a", "b"])
        #expect(form.recordTypes.map(\.name) == ["T", "Users"])
        #expect(CKDBExporter.cktoolForm(form) == form)
    }
}
