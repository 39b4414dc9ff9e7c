import Testing
@testable import CKSchemaModel
@testable import CKSchemaCoreData

/// Field's initializer writes its packed word in one expression, and `NameSet` stands in for
/// `Set<String>` where the import dedupes field names (issue 36 point 4): both are held here
/// to what they replace.
@Suite struct FieldPackingTests {
    /// Every combination of type, list, preferred type, flags, indexes and action: the
    /// initializer gives the field the setters give one built up property by property.
    @Test func initializerAgreesWithTheSetters() {
        let actions: [ReferenceAction?] = [nil, ReferenceAction.none, .deleteSelf]
        let preferred: [PrimitiveType?] = [nil] + PrimitiveType.allCases.map { $0 }
        var checked = 0
        for p in PrimitiveType.allCases {
            for list in [false, true] {
                for pref in preferred {
                    let type = FieldType(p, isList: list, preferred: pref)
                    for bits in 0..<8 {
                        let indexes = IndexKinds(bits: UInt8(bits))
                        for encrypted in [false, true] {
                            for deprecated in [false, true] {
                                for action in actions {
                                    let made = Field(name: "f", type: type, isEncrypted: encrypted, indexes: indexes,
                                                     isDeprecated: deprecated, referenceAction: action)
                                    var built = Field(name: "f", type: FieldType(.string))
                                    built.type = type
                                    built.isEncrypted = encrypted
                                    built.indexes = indexes
                                    built.isDeprecated = deprecated
                                    built.referenceAction = action
                                    #expect(made == built)
                                    #expect(made.type == type && made.isEncrypted == encrypted && made.indexes == indexes
                                            && made.isDeprecated == deprecated && made.referenceAction == action && !made.mayBeAbsent)
                                    let key = withUnsafePointer(to: made) { Field.plainValueKey($0) }
                                    let builtKey = withUnsafePointer(to: built) { Field.plainValueKey($0) }
                                    #expect(key != nil && key == builtKey)
                                    checked += 1
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == PrimitiveType.allCases.count * 2 * preferred.count * 8 * 2 * 2 * 3)
    }

    /// A field with a reference target or a description has no plain value key (its text
    /// depends on more than the bits), and fields that differ in any bit have different keys.
    @Test func plainValueKeySeparatesWhatTheTextDependsOn() {
        let target = Field(name: "a", type: FieldType(.reference), referenceTarget: "Trip")
        let described = Field(name: "a", type: FieldType(.string), description: "why")
        #expect(withUnsafePointer(to: target) { Field.plainValueKey($0) } == nil)
        #expect(withUnsafePointer(to: described) { Field.plainValueKey($0) } == nil)
        var absent = Field(name: "a", type: FieldType(.bytes))
        let present = absent
        absent.mayBeAbsent = true
        let k1 = withUnsafePointer(to: absent) { Field.plainValueKey($0) }
        let k2 = withUnsafePointer(to: present) { Field.plainValueKey($0) }
        #expect(k1 != nil && k2 != nil && k1 != k2)
    }

    /// `NameSet` against `Set<String>` over names that share prefixes, lengths and 8-byte
    /// words, small and heap strings, non-ASCII, the empty name, repeats, and growth well
    /// past its first table.
    @Test func nameSetAgreesWithSet() {
        var names: [String] = ["", "a", "CD_entityName", "CD_moveReceipt", "é", "日本語の名前", "CD_", "CD_a"]
        for i in 0..<3_000 {
            names.append("CD_field\(i % 700)")
            names.append(String(repeating: "x", count: i % 40))
            names.append("longPropertyNameNumber\(i % 313)_ckAsset")
        }
        var reference: Set<String> = []
        var set = NameSet()
        for n in names {
            #expect(set.insert(n) == reference.insert(n).inserted, "insert \(n)")
        }
        #expect(set.count == reference.count)
        for n in names + ["missing", "CD_field700", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"] {
            #expect(set.contains(n) == reference.contains(n), "contains \(n)")
        }
        var seeded = NameSet(["CD_entityName", "CD_moveReceipt", "CD_entityName"])
        #expect(seeded.count == 2)
        seeded.reserveCapacity(1_000)
        #expect(!seeded.insert("CD_moveReceipt") && seeded.insert("CD_title") && seeded.count == 3)
    }

    /// The mapping keeps the first field of a name: an attribute named like a system field,
    /// a subentity's attribute named like its root's, and a to-one relationship named like an
    /// attribute add nothing; every other field keeps its place.
    @Test func mappingKeepsTheFirstFieldOfEachName() throws {
        let origin = Origin.unknown
        func attr(_ name: String, _ type: String) -> CoreDataModel.Attribute {
            CoreDataModel.Attribute(name: name, type: type, origin: origin)
        }
        var root = CoreDataModel.Entity(name: "Trip", origin: origin)
        root.attributes = [attr("entityName", "Integer 64"), attr("title", "String"), attr("title", "Date"), attr("day", "Date")]
        var sub = CoreDataModel.Entity(name: "Hike", origin: origin)
        sub.parent = "Trip"
        sub.attributes = [attr("day", "Integer 64"), attr("length", "Double")]
        let model = CoreDataModel(file: "Model.xcdatamodel", versionName: "", entities: [root, sub])
        let schema = try CoreDataMapping.schema(for: model)
        let names = schema.recordTypes.first { $0.name == "CD_Trip" }?.fields.map(\.name)
        #expect(names == ["CD_entityName", "CD_moveReceipt", "CD_title", "CD_title_ckAsset", "CD_day", "CD_length"])
        let day = schema.recordTypes.first { $0.name == "CD_Trip" }?.fields.first { $0.name == "CD_day" }
        #expect(day?.type == FieldType(.timestamp))
    }
}
