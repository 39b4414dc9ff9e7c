import Foundation
import Testing
import CKSchema

@Suite struct CKDBParserTests {
    func parse(_ text: String) throws -> Schema { try CKDBParser.parse(text, file: "t.ckdb") }

    func errors(_ text: String) -> [Diagnostic] {
        do {
            _ = try CKDBParser.parse(text, file: "t.ckdb")
            return []
        } catch {
            return error.diagnostics
        }
    }

    @Test func cktoolExportMapsToTheModel() throws {
        let schema = try CKDBParser.read(path: CKDBPaths.realFixture("trailmark-export-v2.ckdb"))
        // Source order, not sorted: cktool's own export does not sort record types.
        #expect(schema.recordTypes.map(\.name) == ["Trips", "Waypoints", "Summits", "Users"])
        let trips = try #require(schema.recordType(named: "Trips"))
        #expect(trips.systemIndexes == [.recordName: [.queryable]])
        #expect(trips.fields.map(\.name) == ["distance", "startedAt", "title", "waypoints"])
        #expect(trips.field(named: "waypoints")?.type == .list(.reference))
        #expect(trips.field(named: "distance")?.indexes == [.queryable, .sortable])
        #expect(trips.field(named: "title")?.indexes == [.queryable, .searchable, .sortable])
        #expect(trips.grants == [
            Grant(role: "_creator", permissions: [.write]),
            Grant(role: "_icloud", permissions: [.create]),
            Grant(role: "_world", permissions: [.read]),
        ])
        #expect(schema.recordType(named: "Waypoints")?.field(named: "place")?.indexes == [.queryable, .sortable])
        let users = try #require(schema.recordType(named: "Users"))
        #expect(users.systemIndexes.isEmpty)
        #expect(users.fields == [Field(name: "roles", type: .list(.int64))])
        #expect(schema.roles.isEmpty)
    }

    @Test func rolesSystemIndexesSharesAndMultiPermissionGrants() throws {
        let schema = try CKDBParser.read(path: CKDBPaths.realFixture("shared-coredata.ckdb"))
        #expect(schema.roles.map(\.name) == ["ranger"])
        let hike = try #require(schema.recordType(named: "CD_Hike"))
        #expect(hike.systemIndexes == [.createdAt: [.sortable], .createdBy: [.queryable], .recordName: [.queryable]])
        // CD_ fields keep their source order in the model.
        #expect(hike.fields.first?.name == "CD_entityName")
        #expect(hike.field(named: "CD_moveReceipt")?.indexes == [.queryable, .sortable])
        #expect(hike.field(named: "CD_start")?.type == FieldType(.location))
        #expect(hike.field(named: "tags")?.indexes == [.queryable, .searchable])
        #expect(hike.field(named: "legacyScore")?.type == FieldType(.number, preferred: .double))
        let notes = try #require(hike.field(named: "CD_notes"))
        #expect(notes.isEncrypted && notes.type == FieldType(.string) && notes.indexes.isEmpty)
        let share = try #require(schema.recordType(named: "cloudkit.share"))
        #expect(share.fields.map(\.name) == ["cloudkit.thumbnailImageData", "cloudkit.title", "cloudkit.type"])
        // GRANT READ, WRITE TO one role; two GRANT lines to one role merge.
        let report = try #require(schema.recordType(named: "Report"))
        #expect(report.grants == [
            Grant(role: "ranger", permissions: [.read, .write]),
            Grant(role: "_icloud", permissions: [.create]),
            Grant(role: "_creator", permissions: [.read, .write]),
        ])
        #expect(schema.notation.value == .ckdb)
    }

    @Test func minimalFileHasNoGrantsAndNoSystemIndexes() throws {
        let schema = try CKDBParser.read(path: CKDBPaths.realFixture("minimal.ckdb"))
        #expect(schema.recordTypes.count == 2)
        #expect(schema.recordTypes.allSatisfy { $0.grants.isEmpty && $0.systemIndexes.isEmpty })
        #expect(schema.recordType(named: "Users") == nil)
    }

    @Test func keywordsInAnyCaseAndEveryComment() throws {
        let schema = try parse("""
            /* a block
               comment */ define Schema
            -- a dash comment
            create role Editor;
            Record Type note ( // trailing
                title string Sortable queryable SEARCHABLE, -- after a comma
                /* inside */ count int64,
                grant read, Write to Editor
            );
            """)
        let note = try #require(schema.recordType(named: "note"))
        #expect(note.fields == [
            Field(name: "title", type: FieldType(.string), indexes: [.queryable, .searchable, .sortable]),
            Field(name: "count", type: FieldType(.int64)),
        ])
        #expect(note.grants == [Grant(role: "Editor", permissions: [.read, .write])])
    }

    /// Every keyword in lower case and in alternating case (the lexer folds a word's bytes as one
    /// integer and finds it in a hashed table), words one letter off a keyword (names, whose
    /// table slot a keyword may share), and a keyword in the last bytes of the file.
    @Test func everyKeywordInEveryCaseAndNearMisses() throws {
        let text = """
            DEFINE SCHEMA CREATE ROLE r; RECORD TYPE T (a ASSET QUERYABLE SORTABLE SEARCHABLE, b BYTES, c DOUBLE,
            d INT64, e LOCATION, f REFERENCE, g STRING, h TIMESTAMP, i NUMBER PREFERRED AS INT64,
            j LIST<ENCRYPTED STRING>, GRANT READ, CREATE, WRITE TO r);
            """
        let alternating = String(text.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
        for spelled in [text.lowercased(), alternating] {
            let t = try #require(try parse(spelled).recordTypes.first)
            #expect(t.fields.map(\.type) == [
                FieldType(.asset), FieldType(.bytes), FieldType(.double), FieldType(.int64), FieldType(.location),
                FieldType(.reference), FieldType(.string), FieldType(.timestamp), FieldType(.number, preferred: .int64), .list(.string),
            ])
            #expect(t.fields[0].indexes == [.queryable, .sortable, .searchable])
            #expect(t.fields[9].isEncrypted)
            #expect(t.grants == [Grant(role: "r", permissions: [.read, .create, .write])])
        }
        let near = ["STRINGS", "INT6", "INT640", "INT46", "QUERYABLES", "SEARCHABLF", "ENCRYPTEE", "TYPE_", "AS1", "GRANTS", "TOO", "LISTS", "RECORDS"]
        let schema = try parse("DEFINE SCHEMA RECORD TYPE T (" + near.map { "\($0) STRING" }.joined(separator: ", ") + ");")
        #expect(schema.recordType(named: "T")?.fields.map(\.name) == near)
        #expect(try parse("define schema").recordTypes.isEmpty)
        #expect(try parse("DEFINE SCHEMA RECORD TYPE T (a STRING QUERYABLE);").recordType(named: "T")?.fields.first?.indexes == [.queryable])
    }

    @Test func everyTypeSpelling() throws {
        let schema = try parse("""
            DEFINE SCHEMA
            RECORD TYPE All (
                a ASSET, b BYTES, c DOUBLE, d INT64, e LOCATION, f REFERENCE, g STRING, h TIMESTAMP,
                i NUMBER, j NUMBER PREFERRED AS INT64, k NUMBER PREFERRED AS DOUBLE,
                l ENCRYPTED BYTES, m ENCRYPTED STRING, n ENCRYPTED DOUBLE, o ENCRYPTED INT64,
                p ENCRYPTED LOCATION, q ENCRYPTED TIMESTAMP,
                r LIST<STRING>, s LIST<ENCRYPTED INT64>, t LIST<NUMBER PREFERRED AS DOUBLE>, u LIST < ASSET >
            );
            """)
        let t = try #require(schema.recordType(named: "All"))
        let types = Dictionary(uniqueKeysWithValues: t.fields.map { ($0.name, ($0.type, $0.isEncrypted)) })
        #expect(types["a"]! == (FieldType(.asset), false))
        #expect(types["h"]! == (FieldType(.timestamp), false))
        #expect(types["i"]! == (FieldType(.number), false))
        #expect(types["j"]! == (FieldType(.number, preferred: .int64), false))
        #expect(types["k"]! == (FieldType(.number, preferred: .double), false))
        #expect(types["p"]! == (FieldType(.location), true))
        #expect(types["s"]! == (FieldType.list(.int64), true))
        #expect(types["t"]! == (FieldType(.number, isList: true, preferred: .double), false))
        #expect(types["u"]! == (FieldType.list(.asset), false))
        #expect(t.fields.count == 21)
    }

    @Test func quotedNamesAndKeywordNamedFields() throws {
        let schema = try parse("""
            DEFINE SCHEMA
            RECORD TYPE "cloudkit.share" (
                "cloudkit.title" STRING,
                "grant" STRING,
                type STRING,
                list LIST<STRING>,
                GRANT READ TO "_world"
            );
            RECORD TYPE B (grant INT64, string STRING, GRANT WRITE TO "_creator");
            """)
        let share = try #require(schema.recordType(named: "cloudkit.share"))
        #expect(share.fields.map(\.name) == ["cloudkit.title", "grant", "type", "list"])
        #expect(share.grants == [Grant(role: "_world", permissions: [.read])])
        let b = try #require(schema.recordType(named: "B"))
        #expect(b.fields == [Field(name: "grant", type: FieldType(.int64)), Field(name: "string", type: FieldType(.string))])
        #expect(b.grants == [Grant(role: "_creator", permissions: [.write])])
    }

    @Test func aFieldListedTwiceIsAnError() {
        let d = errors("DEFINE SCHEMA RECORD TYPE A (x STRING, y INT64, x STRING);")
        #expect(d.map(\.code) == ["CK204"])
    }

    /// The duplicate check's table grows with a large record type and is reset for the next:
    /// duplicates are found at any position, in a large type and in a small one after it.
    @Test func aFieldListedTwiceIsFoundInLargeAndSmallTypes() {
        var text = "DEFINE SCHEMA\nRECORD TYPE Big (\n"
        for i in 0..<700 { text += "    f\(i) STRING,\n" }  // lines 3...702
        text += "    f3 INT64,\n    f699 STRING,\n    g STRING\n);\n"  // lines 703, 704
        text += "RECORD TYPE Small (f3 STRING, f0 STRING, f3 INT64);\n"  // line 707
        let d = errors(text)
        #expect(d.map(\.code) == ["CK204", "CK204", "CK204"])
        #expect(d.map(\.message) == [
            "field \"f3\" is listed twice in record type Big (first on line 6)",
            "field \"f699\" is listed twice in record type Big (first on line 702)",
            "field \"f3\" is listed twice in record type Small (first on line 707)",
        ])
        #expect(d.map { $0.location?.line } == [703, 704, 707])
        #expect((try? parse(text.replacingOccurrences(of: "    f3 INT64,\n    f699 STRING,\n", with: "")
            .replacingOccurrences(of: ", f3 INT64", with: ""))) != nil)
    }

    @Test func originsCarryLineAndColumnInScalars() throws {
        let schema = try parse("DEFINE SCHEMA\nRECORD TYPE A (\n  \"é\" STRING, b INT64\n);\n")
        let a = try #require(schema.recordType(named: "A"))
        #expect(a.origin.location == SourceLocation(file: "t.ckdb", line: 2, column: 13))
        #expect(a.fields[1].origin.location == SourceLocation(file: "t.ckdb", line: 3, column: 15))
    }

    @Test func aSchemaOnOneLineKeepsItsColumns() throws {
        var text = "DEFINE SCHEMA CREATE ROLE r0;"
        for i in 1..<3000 { text += " CREATE ROLE r\(i);" }
        text += " RECORD TYPE Wide ("
        for i in 0..<3000 { text += "f\(i) STRING, " }
        for i in 0..<3000 { text += "GRANT READ TO r\(i), " }
        text += "\"é\" INT64);"
        let schema = try parse(text)
        let wide = try #require(schema.recordType(named: "Wide"))
        #expect(wide.fields.count == 3001)
        #expect(wide.grants.count == 3000)
        let last = try #require(wide.fields.last)
        #expect(last.origin.location?.line == 1)
        #expect(last.origin.location?.column == text.unicodeScalars.count - "\"é\" INT64);".unicodeScalars.count + 1)
        let bad = text.replacingOccurrences(of: "INT64);", with: "INT46);")
        #expect(errors(bad).map { $0.location?.column } == [text.unicodeScalars.count - "INT64);".unicodeScalars.count + 1])
    }

    @Test func roleCreatedAfterItsUseIsFine() throws {
        let schema = try parse("DEFINE SCHEMA RECORD TYPE A (GRANT READ TO late); CREATE ROLE late;")
        #expect(schema.roles.map(\.name) == ["late"])
    }

    @Test func byteOrderMarkAndCRLF() throws {
        var data = Data([0xEF, 0xBB, 0xBF])
        data.append(Data("DEFINE SCHEMA\r\nRECORD TYPE A (\r\n    x STRING\r\n);\r\n".utf8))
        let schema = try CKDBParser.parse(data, file: "t.ckdb")
        #expect(schema.recordType(named: "A")?.fields.first?.origin.location == SourceLocation(file: "t.ckdb", line: 3, column: 5))
        let bad = Data("DEFINE SCHEMA\r\nRECORD TYPE A (\r\n    x STRNG\r\n);\r\n".utf8)
        #expect(throws: InputError.self) { try CKDBParser.parse(bad, file: "t.ckdb") }
    }

    @Test func contentSniffing() {
        #expect(CKDBParser.looksLikeCKDB(Data("-- header\n/* x */ define schema".utf8)))
        #expect(CKDBParser.looksLikeCKDB(Data("RECORD TYPE A (x STRING);".utf8)))
        #expect(!CKDBParser.looksLikeCKDB(Data("ckschema: 1\nrecordTypes: {}\n".utf8)))
        #expect(!CKDBParser.looksLikeCKDB(Data()))
    }

    @Test func errorsStopAtTheLimit() {
        let text = "DEFINE SCHEMA\n" + String(repeating: "RECORD TYPE A (x STRNG);\n", count: 300)
        let d = errors(text)
        #expect(d.count == CKDBParser.maxErrors + 1)
        #expect(d.last?.message.hasPrefix("too many errors") == true)
    }

    @Test func unknownSystemFieldAndWrongSystemType() {
        #expect(errors("DEFINE SCHEMA RECORD TYPE A (\"___recordId\" REFERENCE);").map(\.message)
                == ["\"___recordId\" is not a system field; did you mean ___recordID?"])
        #expect(errors("DEFINE SCHEMA RECORD TYPE A (\"___recordID\" STRING QUERYABLE);").map(\.code) == ["CK209"])
    }

    @Test func everyRuleIsInTheCatalog() {
        for rule in CKDBRules.all {
            #expect(RuleCatalog.info(rule.code) == rule)
            #expect(rule.code.hasPrefix("CK2"))
            #expect(!rule.source.isEmpty)
        }
        #expect(Set(CKDBRules.all.map(\.code)).count == CKDBRules.all.count)
    }
}
