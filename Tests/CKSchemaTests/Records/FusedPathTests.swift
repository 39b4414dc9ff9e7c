import Foundation
import Testing
@testable import CKSchema
@testable import CKSchemaConfig
@testable import CKSchemaRecords

/// `validate`'s fused path (RecordChecker+Fused.swift) against the tape and the general checks,
/// the reference: for every record, in both environments, with and without `--batch`, they
/// must leave the same findings and the same effects (deleteSelf references, batch entries,
/// references to check), byte for byte.
@Suite struct FusedPathTests {
    /// A schema with every field type, encryption, a deprecated type and field, references
    /// with and without a target, and types in a zone and in the default zone.
    static let schemaText = """
        ckschema: 1
        zones:
          Journal: { database: private, capabilities: [fetchChanges, atomic] }
        recordTypes:
          Trip:
            zone: Journal
            fields:
              title: { type: string, indexes: [queryable] }
              startedAt: timestamp
              distance: double
              steps: int64
              amount: number<int64>
              region: location
              notes: { type: string, encrypted: true }
              cover: asset
              tags: list<string>
              counts: list<int64>
              times: list<timestamp>
              places: list<location>
              thumbnail: bytes
              secretBytes: { type: bytes, encrypted: true }
              legacyRating: { type: int64, deprecated: true }
          Waypoint:
            zone: Journal
            fields:
              trip: { type: reference, to: Trip, action: deleteSelf }
              anything: reference
              others: list<reference>
              note: { type: string, encrypted: true }
              elevation: double
          Loose:
            fields:
              name: string
          OldThing:
            zone: Journal
            deprecated: true
            fields:
              name: string

        """

    static let schema = try! SchemaSource.parseYAML(Data(schemaText.utf8), file: "fused-schema.yaml").schema

    /// The four checkers' settings: production or development, with `--batch` or without.
    static let settings: [(production: Bool, batch: Bool)] = [(true, false), (true, true), (false, false), (false, true)]

    /// Checkers in pairs, fused and general, one pair per setting.
    struct Pairs {
        var fused: [RecordChecker]
        var general: [RecordChecker]

        let settings: [(production: Bool, batch: Bool)]

        init(_ schema: Schema, settings: [(production: Bool, batch: Bool)] = FusedPathTests.settings) {
            let compiled = CompiledSchema(schema)
            self.settings = settings
            fused = settings.map { RecordChecker(schema: compiled, production: $0.production, collectBatch: $0.batch, keepsTokens: false) }
            general = settings.map { RecordChecker(schema: compiled, production: $0.production, collectBatch: $0.batch) }
        }

        /// Compares both paths on `bytes` under every setting; returns whether the fused path
        /// kept the record under all of them.
        @discardableResult
        mutating func same(_ bytes: [UInt8], inPlace checksInPlace: Bool = true, sourceLocation: Testing.SourceLocation = #_sourceLocation) -> Bool {
            var kept = true
            for k in fused.indices {
                let difference = bytes.withUnsafeBufferPointer { b in
                    RecordChecker.disagreement(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count, fused: &fused[k], general: &general[k])
                }
                #expect(difference == nil, "\(settings[k]): \(difference ?? ""): \(String(decoding: bytes.prefix(300), as: UTF8.self))",
                        sourceLocation: sourceLocation)
                #expect(!general[k].lastCheckWasFused)
                if !fused[k].lastCheckWasFused { kept = false }
                // In place, as `validate` reads a block: the bytes after the record are the next
                // record's (here the same again, then quotes), not zeros, and are left as they were.
                guard checksInPlace else { continue }
                var block = bytes + [0x0A] + bytes + [UInt8](repeating: 0x22, count: JSONTape.padding)
                let before = block
                var inPlace = ChunkResult(), reference = ChunkResult()
                block.withUnsafeMutableBufferPointer { b in
                    _ = fused[k].check(inPlace: b.baseAddress!, bytes.count, index: 0, position: .bytes(line: 0, column: 1), into: &inPlace)
                }
                bytes.withUnsafeBufferPointer { b in
                    _ = general[k].check(b.baseAddress ?? UnsafePointer(bitPattern: 1)!, b.count, index: 0, position: .bytes(line: 0, column: 1), into: &reference)
                }
                #expect(inPlace.everything == reference.everything, "in place, \(settings[k]): \(String(decoding: bytes.prefix(300), as: UTF8.self))",
                        sourceLocation: sourceLocation)
                #expect(block == before, sourceLocation: sourceLocation)
            }
            return kept
        }
    }

    /// Clean records of every shape the fused path reads: each is kept by it.
    static let clean: [String] = [
        #"{"recordName":"trip-1","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"Storm Cold Trail","type":"STRING"},"startedAt":{"value":1707160956086,"type":"TIMESTAMP"},"distance":{"value":35491.03,"type":"DOUBLE"},"steps":{"value":24086,"type":"INT64"},"region":{"value":{"latitude":84.56405,"longitude":-77.330061},"type":"LOCATION"},"notes":{"value":"ridge cold","type":"ENCRYPTED_STRING"},"tags":{"value":["gentle","forest"],"type":"STRING_LIST"},"thumbnail":{"value":"4IImuKsa1mo7EwGz","type":"BYTES"}}}"#,
        #"{"recordName":"wp-1","recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"trip-1","zoneID":{"zoneName":"Journal"},"action":"DELETE_SELF"},"type":"REFERENCE"},"note":{"value":"rocky short","type":"ENCRYPTED_STRING"},"elevation":{"value":1248.2,"type":"DOUBLE"}}}"#,
        // cktool's spellings, the tag before the value, isEncrypted, whitespace everywhere.
        " { \"recordType\" : \"Trip\" , \"recordName\" : \"t2\" , \"zoneID\" : { \"ownerName\" : \"_defaultOwner\" , \"zoneName\" : \"Journal\" } , \"fields\" : { \"steps\" : { \"type\" : \"int64Type\" , \"value\" : -3 } , \"notes\" : { \"type\" : \"stringType\" , \"isEncrypted\" : true , \"value\" : \"x\" } , \"counts\" : { \"value\" : [ 1 , 2 ] , \"type\" : \"int64ListType\" } } } \r",
        // No name, no fields; the zone as a bare name; an empty fields mapping.
        #"{"recordType":"Trip","zoneID":"Journal"}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{}}"#,
        // The default zone: no zoneID, an empty one.
        #"{"recordName":"l1","recordType":"Loose","fields":{"name":{"value":"n","type":"STRING"}}}"#,
        #"{"recordName":"l2","recordType":"Loose","zoneID":{},"fields":{"name":{"value":null,"type":"STRING"}}}"#,
        // Nulls, empty lists, EMPTY_LIST, NUMBER, numbers at their limits.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":null},"tags":{"value":[],"type":"EMPTY_LIST"},"counts":{"value":[9223372036854775807,-9223372036854775808],"type":"INT64_LIST"},"amount":{"value":7,"type":"NUMBER"},"distance":{"value":-0.0e-0,"type":"DOUBLE"},"startedAt":{"value":0}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"distance":{"value":1e308,"type":"DOUBLE"},"times":{"value":[1,2],"type":"TIMESTAMP_LIST"},"places":{"value":[{"latitude":90,"longitude":-180,"altitude":3.5,"speed":1,"course":2,"timestamp":5,"horizontalAccuracy":1,"verticalAccuracy":2}],"type":"LOCATION_LIST"}}}"#,
        // Assets, bytes (encrypted), the change tag and the deleted flag of an export.
        #"{"recordName":"t3","recordType":"Trip","recordChangeTag":"abc","deleted":false,"zoneID":{"zoneName":"Journal"},"fields":{"cover":{"value":{"fileChecksum":"AQ==","size":12,"referenceChecksum":"Ag==","wrappingKey":"Aw==","receipt":"r","downloadURL":"https://x"},"type":"ASSETID"},"secretBytes":{"value":"AAAA","type":"ENCRYPTED_BYTES"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":{"value":{},"type":"ASSET"},"thumbnail":{"value":"","type":"BYTES"}}}"#,
        // References: a bare name, every action, a target type, deleteSelf in a list.
        #"{"recordName":"wp-2","recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":"trip-1","type":"REFERENCE"},"anything":{"value":{"recordName":"x","action":"NONE","recordType":"Whatever"},"type":"REFERENCE"}}}"#,
        #"{"recordName":"wp-3","recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"trip-1","recordType":"Trip","action":"deleteSelf"},"type":"REFERENCE"},"others":{"value":[{"recordName":"a","action":"DELETE_SELF"},{"recordName":"b","action":"VALIDATE"},{"recordName":"a","action":"DELETE_SELF","zoneID":"Journal"}],"type":"REFERENCE_LIST"}}}"#,
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"trip-9","action":"DELETE_SELF"},"type":"REFERENCE"}}}"#,
        // Fields out of the schema's order (the next-field guess misses), and a value spaced out.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"thumbnail":{"value":"AAAA","type":"BYTES"},"title":{"value": "t","type":"STRING"},"steps":{"value":1 ,"type":"INT64"},"tags":{"value":["a"]}}}"#,
        // A zone ID and locations that start as the usual ones and go on otherwise.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal","ownerName":"_defaultOwner"},"fields":{"region":{"value":{"latitude":1,"altitude":2,"longitude":3},"type":"LOCATION"},"places":{"value":[{"latitude":1,"longitude" :2},{"latitude":-1.5,"longitude":2,"speed":0}]}}}"#,
        // A name of 255 characters, CloudKit's longest.
        "{\"recordName\":\"" + String(repeating: "n", count: 255) + "\",\"recordType\":\"Trip\",\"zoneID\":{\"zoneName\":\"Journal\"}}",
        // Unicode in values (not in names).
        #"{"recordName":"t4","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"trail é 😀 short","type":"STRING"},"tags":{"value":["ꙮ"],"type":"STRING_LIST"}}}"#,
    ]

    /// Records the fused path gives to the general path: what it would have to report, or a
    /// shape it does not read.
    static let handedOver: [String] = [
        // The record's own problems.
        #"{"recordName":"","recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordName":"_x","recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordName":"é","recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        "{\"recordName\":\"" + String(repeating: "n", count: 256) + "\",\"recordType\":\"Trip\",\"zoneID\":{\"zoneName\":\"Journal\"}}",
        #"{"recordName":null,"recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordName":7,"recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordType":"Nope","fields":{"a":{"value":1}}}"#, #"{"recordType":"OldThing","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordType":"Trip"}"#, #"{"recordType":"Loose","zoneID":{"zoneName":"Journal"}}"#, #"{"fields":{}}"#, #"{}"#, "[]", "1",
        #"{"recordType":"Trip","zoneID":{"zoneName":"Elsewhere"}}"#, #"{"recordType":"Trip","zoneID":{"zoneName":"Journal","zoneType":"REGULAR_CUSTOM_ZONE"}}"#,
        #"{"recordType":"Trip","zone":{"zoneName":"Journal"}}"#, #"{"recordtype":"Trip"}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"parent":"p"}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"encryptedValues":{"notes":{"value":"x"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"created":{"timestamp":1}}"#,
        // Keys in an order the fused path does not follow, and keys twice.
        #"{"fields":{"title":{"value":"x"}},"recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordType":"Waypoint","fields":{"trip":{"value":{"recordName":"a","action":"DELETE_SELF"}}},"zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordType":"Trip","recordType":"Trip","zoneID":{"zoneName":"Journal"}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal","zoneName":"Journal"}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1},"steps":{"value":2}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"value":2}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"latitude":1,"longitude":2,"altitude":1,"altitude":2}}}}"#,
        // Fields: unknown, deprecated, a bare value, a tag and no value, tags that do not fit.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"nope":{"value":1}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"legacyRating":{"value":1}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":1}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"type":"INT64"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"type":"STRING"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"type":"FLOAT"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"type":7}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1,"typo":"INT64"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"tags":{"value":["a"],"type":"STRING"}}}"#,
        // Encryption the schema does not say.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"notes":{"value":"x","type":"STRING"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"x","type":"ENCRYPTED_STRING"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"x","isEncrypted":true}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"notes":{"value":"x","isEncrypted":1}}}"#,
        // Values of the wrong kind or out of range.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":1.5,"type":"INT64"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"steps":{"value":9223372036854775808,"type":"INT64"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"distance":{"value":1e400,"type":"DOUBLE"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"startedAt":{"value":"2024-05-01T12:00:00Z","type":"TIMESTAMP"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"thumbnail":{"value":"ab!c","type":"BYTES"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"a\"b","type":"STRING"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"latitude":91,"longitude":0}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"latitude":"1","longitude":0}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"longitude":0}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"latitude":1}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"latitude":1,"longitude":181}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":5},"fields":{}}"#, #"{"recordType":"Trip","zoneID":{"zoneName":"Journal","zoneName":"Journal"}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"region":{"value":{"latitude":1,"longitude":0,"floor":{"level":1}}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":{"value":"/tmp/file.jpg"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"cover":{"value":{"size":{"x":1}}}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"counts":{"value":[1,null],"type":"INT64_LIST"}}}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"counts":{"value":1,"type":"INT64_LIST"}}}"#,
        // References the fused path would have to report, or does not read.
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"a","zoneID":{"zoneName":"Other"}}}}}"#,
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"a","recordType":"Waypoint"}}}}"#,
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"a","action":"DELETE"}}}}"#,
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"action":"NONE"}}}}"#,
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"a","acton":"NONE"}}}}"#,
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"a","action":null}}}}"#,
        // More deleteSelf references in one record than the fused path keeps aside.
        #"{"recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"others":{"value":["#
            + (0..<40).map { #"{"recordName":"t\#($0 % 3)","action":"DELETE_SELF"}"# }.joined(separator: ",") + #"],"type":"REFERENCE_LIST"}}}"#,
        // Over CloudKit's 1 MB of record data in a line under 1 MB (an int64 counts 8 bytes).
        "{\"recordType\":\"Trip\",\"zoneID\":{\"zoneName\":\"Journal\"},\"fields\":{\"counts\":{\"value\":[" + Array(repeating: "1", count: 140_000).joined(separator: ",") + "]}}}",
        // Syntax errors.
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"}} x"#, #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},}"#,
        #"{"recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"tags":{"value":["a",]}}}"#, "{\"recordType\":\"Trip\"\u{0}}",
    ]

    /// Every clean record is read by the fused path, under every setting, to the same result.
    @Test func cleanRecordsAreFused() {
        var pairs = Pairs(Self.schema)
        for record in Self.clean {
            let kept = pairs.same(Array(record.utf8))
            #expect(kept, "the fused path gave up on \(record)")
        }
    }

    /// Every record it must not read goes to the general path, with the same result.
    @Test func theOthersAreHandedOver() {
        var pairs = Pairs(Self.schema)
        for record in Self.handedOver {
            let kept = pairs.same(Array(record.utf8))
            #expect(!kept, "the fused path kept \(record.prefix(200))")
        }
        // A record of each kind between two others: what one leaves must not change the next.
        for record in Self.handedOver {
            pairs.same(Array(Self.clean[1].utf8))
            pairs.same(Array(record.utf8))
        }
    }

    /// Each clean record with each byte replaced by each byte that steers a reader, cut at
    /// every byte and without it; in production with `--batch` and in development without
    /// (the other two settings differ from these in one thing each, and the tests above hold
    /// them). The fuzz target goes on from here.
    @Test func everyByteOfEveryCleanRecord() {
        var pairs = Pairs(Self.schema, settings: [(true, true), (false, false)])
        let bytes: [UInt8] = [0x00, 0x20, 0x22, 0x5C, 0x7D, 0x5D, 0x2C, 0x3A, 0x2E, 0x31, 0x65, 0x5F, 0x80]
        var kept = 0, checked = 0
        for record in Self.clean {
            let line = Array(record.utf8)
            for k in line.indices {
                for b in bytes where b != line[k] {
                    var changed = line
                    changed[k] = b
                    if pairs.same(changed, inPlace: false) { kept += 1 }
                    checked += 1
                }
                pairs.same(Array(line[..<k]))
                var without = line
                without.remove(at: k)
                pairs.same(without)
            }
        }
        // Not vacuous: some changes leave a record clean (a digit for a digit, a letter of a value).
        #expect(kept > 1000 && kept < checked, "the fused path kept \(kept) of \(checked)")
    }

    /// Every line of every records fixture, against the fixtures' schema.
    @Test func everyFixtureLine() throws {
        var pairs = Pairs(try SchemaSource.load(path: Paths.fixture("records/schema.yaml")))
        var kept = 0, lines = 0
        for line in try JSONTapeFastPathTests.fixtureLines() {
            lines += 1
            if pairs.same(line) { kept += 1 }
        }
        #expect(lines > 300 && kept > 20, "the fused path kept \(kept) of \(lines) lines")
    }

    /// A field name JSON cannot hold unescaped is never matched by its bytes: the key path
    /// reads it, and a line that only looks like it is no record.
    @Test func namesJSONCannotHoldAsTheyAre() throws {
        let text = """
            ckschema: 1
            recordTypes:
              Odd:
                fields:
                  'a"b': string
                  'c\\d': string
                  plain: string

            """
        var pairs = Pairs(try SchemaSource.parseYAML(Data(text.utf8), file: "odd.yaml").schema)
        for record in [#"{"recordType":"Odd","fields":{"a"b":{"value":"x"}}}"#, #"{"recordType":"Odd","fields":{"a\"b":{"value":"x"}}}"#,
                       #"{"recordType":"Odd","fields":{"c\d":{"value":"x"}}}"#, #"{"recordType":"Odd","fields":{"c\\d":{"value":"x"}}}"#,
                       #"{"recordType":"Odd","fields":{"plain":{"value":"x"}}}"#] {
            pairs.same(Array(record.utf8))
        }
    }

    /// The benchmark's own records (Benchmarks/validate/generate.py's shapes), against its schema.
    @Test func theBenchmarkShapes() throws {
        var pairs = Pairs(try SchemaSource.load(path: Paths.root + "/Benchmarks/validate/schema.yaml"))
        let records = [
            #"{"recordName":"wp-00000000","recordType":"Waypoint","zoneID":{"zoneName":"Journal"},"fields":{"trip":{"value":{"recordName":"trip-00000000","zoneID":{"zoneName":"Journal"},"action":"DELETE_SELF"},"type":"REFERENCE"},"position":{"value":{"latitude":-29.851608,"longitude":-53.97685,"altitude":1197.8},"type":"LOCATION"},"recordedAt":{"value":1702900979964,"type":"TIMESTAMP"},"elevation":{"value":1248.2,"type":"DOUBLE"},"heartRates":{"value":[144,86,72],"type":"INT64_LIST"},"note":{"value":"rocky short glacier","type":"ENCRYPTED_STRING"},"label":{"value":"trail short morning","type":"STRING"}}}"#,
            #"{"recordName":"trip-00000002","recordType":"Trip","zoneID":{"zoneName":"Journal"},"fields":{"title":{"value":"Storm Cold Trail","type":"STRING"},"startedAt":{"value":1707160956086,"type":"TIMESTAMP"},"endedAt":{"value":1707192662999,"type":"TIMESTAMP"},"region":{"value":{"latitude":84.56405,"longitude":-77.330061},"type":"LOCATION"},"distanceMeters":{"value":35491.03,"type":"DOUBLE"},"steps":{"value":24086,"type":"INT64"},"notes":{"value":"ridge cold storm cold meadow","type":"ENCRYPTED_STRING"},"tags":{"value":["gentle","forest"],"type":"STRING_LIST"},"checksum":{"value":"4IImuKsa1mo7EwGz","type":"BYTES"}}}"#,
        ]
        for record in records {
            let kept = pairs.same(Array(record.utf8))
            #expect(kept, "the fused path gave up on \(record)")
        }
    }
}
