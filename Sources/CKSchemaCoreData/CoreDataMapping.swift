import CKSchemaDiagnostics
import CKSchemaModel

/// The CloudKit schema NSPersistentCloudKitContainer builds from a Core Data model.
///
/// Each line of the mapping is cited in docs/coredata.md, with Apple's article and the
/// real export (`../shared/corpus/ckdb/`) that shows it.
public enum CoreDataMapping {
    /// The zone mirroring uses in the private database. Source: “Reading CloudKit Records
    /// for Core Data” (the record IDs it prints are in `com.apple.coredata.cloudkit.zone`).
    public static let zoneName = "com.apple.coredata.cloudkit.zone"
    /// The record type of many-to-many relationships. Source: “Reading CloudKit Records for
    /// Core Data”, many-to-many relationships.
    public static let manyToManyType = "CDMR"

    /// `CD_` before every record type and field. Source: “Reading CloudKit Records for
    /// Core Data” (“CloudKit prefixes the CKRecord types and fields it creates ... with CD_”).
    public static func cloudName(_ name: String) -> String {
        // Built from the bytes in one step: `"CD_" + name` went through the general append
        // (a small string re-encoded), about 150 instructions a field of a model-dense import.
        var name = name
        return name.withUTF8 { b in
            String(unsafeUninitializedCapacity: b.count + 3) { out in
                out[0] = UInt8(ascii: "C")
                out[1] = UInt8(ascii: "D")
                out[2] = UInt8(ascii: "_")
                if let from = b.baseAddress, let to = out.baseAddress { (to + 3).update(from: from, count: b.count) }
                return b.count + 3
            }
        }
    }

    /// Whether a record type is one Core Data's mirroring writes (`CD_Trip`, `CDMR`).
    public static func isMirrored(_ recordType: String) -> Bool {
        recordType.hasPrefix("CD_") || recordType == manyToManyType
    }

    /// The field type of an attribute type: nil for one the mapping does not know,
    /// `.some(nil)` for one CloudKit does not support (Undefined, ObjectID; CK616 says so).
    ///
    /// Source: “Reading CloudKit Records for Core Data” (attributes keep their value
    /// types), checked against the corpus exports: `CD_isHidden INT64` (a Boolean),
    /// `CD_id STRING` (a UUID), `CD_inputMax DOUBLE`, `CD_completionTime TIMESTAMP`,
    /// `CD_alternateNames BYTES` (a Transformable). Decimal is a DOUBLE: the wiggle-room
    /// export (../shared/corpus/swift) shows SwiftData's `Decimal` properties, which SwiftData
    /// models as Core Data Decimal attributes, as `CD_ DOUBLE` fields (an NSDecimalNumber is
    /// an NSNumber, which CloudKit stores as a number); docs/coredata.md and docs/swiftdata.md.
    public static func fieldType(_ attributeType: String) -> PrimitiveType?? {
        // A switch over strings compares case after case: the first byte picks the few that
        // can match (the comparisons were 1% of a SwiftData import, Benchmarks/swift).
        let t = attributeType
        switch t.utf8.first {
        case UInt8(ascii: "S"): return t == "String" ? .string : nil
        case UInt8(ascii: "U"): return t == "UUID" || t == "URI" ? .string : t == "Undefined" ? .some(nil) : nil
        case UInt8(ascii: "I"): return t == "Integer 64" || t == "Integer 32" || t == "Integer 16" ? .int64 : nil
        case UInt8(ascii: "B"): return t == "Boolean" ? .int64 : t == "Binary" ? .bytes : nil
        case UInt8(ascii: "D"): return t == "Double" || t == "Decimal" ? .double : t == "Date" ? .timestamp : nil
        case UInt8(ascii: "F"): return t == "Float" ? .double : nil
        case UInt8(ascii: "T"): return t == "Transformable" ? .bytes : nil
        case UInt8(ascii: "O"): return t == "ObjectID" ? .some(nil) : nil
        default: return nil
        }
    }

    /// Attribute types whose large values CloudKit stores as an asset beside the field
    /// (`CD_<attribute>_ckAsset`). Source: “Reading CloudKit Records for Core Data”
    /// (large values are externalized as CKAsset), WWDC19 “Using Core Data With CloudKit”
    /// (asset externalization).
    static func isExternalizable(_ attributeType: String) -> Bool {
        attributeType == "String" || attributeType == "Binary" || attributeType == "Transformable"
    }

    /// Indexes CloudKit's development environment gives a field it creates: every
    /// field queryable and sortable, strings also searchable, assets none. Source: the
    /// corpus exports (every CD_ field, `CD_moveReceipt BYTES QUERYABLE SORTABLE`).
    static func indexes(_ type: PrimitiveType) -> IndexKinds {
        switch type {
        case .string: stringIndexes
        case .asset: []
        default: valueIndexes
        }
    }

    // Built once: an array literal of index kinds is a variadic call that makes an array,
    // once per field of an import.
    private static let stringIndexes: IndexKinds = [.queryable, .searchable, .sortable]
    private static let valueIndexes: IndexKinds = [.queryable, .sortable]

    /// The grants CloudKit gives a record type it creates. Source: every CD_ type of the
    /// corpus exports (`GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world"`).
    static func grants(_ origin: Origin) -> [Grant] {
        [Grant(role: "_creator", permissions: [.write], origin: origin),
         Grant(role: "_icloud", permissions: [.create], origin: origin),
         Grant(role: "_world", permissions: [.read], origin: origin)]
    }

    /// The entities mirrored: those of the configuration chosen, else of the one marked
    /// `usedWithCloudKit`, else every entity (the Default configuration).
    public static func entities(of model: CoreDataModel, configuration: String?) throws(InputError) -> [CoreDataModel.Entity] {
        let names = model.configurations.map { "'\($0.name)'" }.joined(separator: ", ")
        var chosen: CoreDataModel.Configuration?
        if let configuration {
            chosen = model.configurations.first { $0.name == configuration }
            if chosen == nil && configuration != "Default" {
                throw InputError(Diagnostic(rule: CoreDataRules.configuration, "the model has no configuration '\(configuration)'" + (names.isEmpty ? "" : "; it has \(names)"),
                                        at: model.origin.location, fix: "pass one of its configurations to --configuration, or Default for every entity"))
            }
        } else {
            let cloud = model.configurations.filter(\.usedWithCloudKit)
            if cloud.count > 1 {
                throw InputError(Diagnostic(rule: CoreDataRules.configuration, "\(cloud.count) configurations are used with CloudKit (\(cloud.map { "'\($0.name)'" }.joined(separator: ", "))); the schema depends on which store this is",
                                        at: cloud[1].origin.location, fix: "pass --configuration NAME (or coreData.configuration in ckschema.yaml)"))
            }
            chosen = cloud.first
        }
        guard let chosen else { return model.entities }
        var byName: [String: CoreDataModel.Entity] = [:]
        for e in model.entities where byName[e.name] == nil { byName[e.name] = e }
        var out: [CoreDataModel.Entity] = []
        for m in chosen.members {
            guard let e = byName.removeValue(forKey: m) else {
                if model.entity(named: m) == nil {
                    throw InputError(Diagnostic(rule: CoreDataRules.missingEntity, "configuration '\(chosen.name)' names the entity '\(m)', which the model does not have",
                                            at: chosen.origin.location, fix: "remove it from the configuration in Xcode"))
                }
                continue
            }
            out.append(e)
        }
        return out
    }

    /// The root of each entity's inheritance chain. Throws CK604 for a missing parent or a cycle.
    static func roots(_ model: CoreDataModel) throws(InputError) -> [String: String] {
        var byName: [String: CoreDataModel.Entity] = [:]
        for e in model.entities where byName[e.name] == nil { byName[e.name] = e }
        var roots: [String: String] = [:]
        var errors: [Diagnostic] = []
        for e in model.entities {
            var seen: Set<String> = [e.name]
            var current = e
            while let p = current.parent {
                guard let parent = byName[p] else {
                    errors.append(Diagnostic(rule: CoreDataRules.missingEntity, "entity '\(current.name)' inherits from '\(p)', which the model does not have",
                                         at: current.origin.location, fix: "choose an existing parent entity in Xcode, or none"))
                    break
                }
                guard seen.insert(p).inserted else {
                    errors.append(Diagnostic(rule: CoreDataRules.missingEntity, "entity '\(e.name)' inherits from itself through '\(p)'",
                                         at: e.origin.location, fix: "break the cycle of parent entities"))
                    break
                }
                current = parent
            }
            roots[e.name] = current.name
        }
        for e in model.entities {
            for r in e.relationships where byName[r.destination] == nil {
                errors.append(Diagnostic(rule: CoreDataRules.missingEntity, "relationship '\(e.name).\(r.name)' points to the entity '\(r.destination)', which the model does not have",
                                     at: r.origin.location, fix: "choose an existing destination entity in Xcode"))
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        return roots
    }

    /// The schema a model mirrors to. It is partial: it describes the model's record types
    /// (and CDMR), never `Users`, `cloudkit.share` or types the app created otherwise.
    /// `onDemandFields: false` leaves out the fields CloudKit creates only on demand
    /// (`mayBeAbsent`: `_ckAsset` companions, `CD_moveReceipt`), for a caller that would
    /// remove them (`ckschema import`: building them was a tenth of its work, Benchmarks/swift).
    public static func schema(for model: CoreDataModel, configuration: String? = nil, onDemandFields: Bool = true) throws(InputError) -> Schema {
        let roots = try roots(model)
        let included = try entities(of: model, configuration: configuration)
        let includedNames = Set(included.map(\.name))
        var byName: [String: CoreDataModel.Entity] = [:]
        for e in model.entities where byName[e.name] == nil { byName[e.name] = e }

        var errors: [Diagnostic] = []
        // The record types in order, found by name through `typeIndex`; each one's field names
        // beside it, so that a subentity's fields join their root's in one lookup each. (A
        // dictionary of record types modified per field, and a search of the field list per
        // field, were a quarter of `import`'s time on 2,400 models: Benchmarks/swift.)
        var types: [RecordType] = []
        var typeIndex: [String: Int] = [:]
        var fieldNames: [NameSet] = []
        var manyToMany: Origin?
        for e in included {
            guard let root = roots[e.name] else { continue }
            let typeName = cloudName(root)
            let t: Int
            if let known = typeIndex[typeName] {
                t = known
            } else {
                let rootOrigin = byName[root]?.origin ?? e.origin
                t = types.count
                typeIndex[typeName] = t
                // Source: “Reading CloudKit Records for Core Data” — the record type is the
                // root entity's; CD_entityName holds the entity of each record.
                types.append(RecordType(
                    name: typeName, zone: zoneName,
                    fields: [Field(name: "CD_entityName", type: FieldType(.string), indexes: indexes(.string), origin: rootOrigin)]
                        + (onDemandFields ? [moveReceipt(rootOrigin)] : []),
                    grants: grants(rootOrigin), origin: rootOrigin))
                fieldNames.append(NameSet(["CD_entityName", "CD_moveReceipt"]))
            }
            // Each field joins its type unless a field of that name is there already (the
            // root's or another subentity's: the first one stays). Appended in place: an
            // entity's fields gathered apart and then copied over cost a copy of each.
            // With room for the `_ckAsset` companions too: without it the array grew twice
            // for a type with binary attributes (each time a copy of its fields).
            var room = e.attributes.count + e.relationships.count
            if onDemandFields { for i in e.attributes.indices where isExternalizable(e.attributes[i].type) { room += 1 } }
            types[t].fields.reserveCapacity(types[t].fields.count + room)
            fieldNames[t].reserveCapacity(fieldNames[t].count + room)
            // By index, the attribute's properties read in place: iterating `e.attributes`
            // copied each attribute (its strings retained and released), once per field.
            let attributes = e.attributes
            for i in attributes.indices where !attributes[i].isTransient {
                let type = attributes[i].type
                guard let mapped = fieldType(type) else {
                    errors.append(Diagnostic(rule: CoreDataRules.unknownAttributeType, "attribute '\(e.name).\(attributes[i].name)' has the type '\(type)', which the mapping to CloudKit does not know",
                                             at: attributes[i].origin.location, fix: "use one of Xcode's attribute types (String, Integer 64, Double, Date, Binary, ...)"))
                    continue
                }
                guard let primitive = mapped else { continue }
                // Encrypted fields carry no index: the server cannot read them.
                // Source: CKRecord.encryptedValues; `allowsCloudEncryption` in the model.
                let encrypted = attributes[i].allowsCloudEncryption
                let name = cloudName(attributes[i].name)
                add(Field(name: name, type: FieldType(primitive), isEncrypted: encrypted,
                          indexes: encrypted ? [] : indexes(primitive), origin: attributes[i].origin), to: &types[t], names: &fieldNames[t])
                if onDemandFields, isExternalizable(type) {
                    var companion = Field(name: name + "_ckAsset", type: FieldType(.asset), origin: attributes[i].origin)
                    companion.mayBeAbsent = true
                    add(companion, to: &types[t], names: &fieldNames[t])
                }
            }
            for r in e.relationships where !r.isTransient {
                guard let dest = byName[r.destination] else { continue }
                let inverse = r.inverseName.flatMap { n in dest.relationships.first { $0.name == n } }
                if !r.isToMany {
                    // A to-one holds the related record's name. Source: “Reading CloudKit
                    // Records for Core Data”, to-one relationships.
                    add(Field(name: cloudName(r.name), type: FieldType(.string), indexes: indexes(.string), origin: r.origin), to: &types[t], names: &fieldNames[t])
                } else if let inverse, inverse.isToMany, includedNames.contains(dest.name) {
                    // Both sides to-many: a CDMR record per link. A to-many whose inverse is
                    // to-one is stored on the other side only.
                    if manyToMany == nil { manyToMany = r.origin }
                }
            }
        }
        if !errors.isEmpty { throw InputError(errors) }
        var recordTypes = types
        if let origin = manyToMany {
            let names = ["CD_entityNames", "CD_recordNames", "CD_relationships"]
            recordTypes.append(RecordType(
                name: manyToManyType, zone: zoneName,
                fields: names.map { Field(name: $0, type: FieldType(.string), indexes: indexes(.string), origin: origin) },
                grants: grants(origin), origin: origin))
        }
        var schema = Schema(
            zones: [Zone(name: zoneName, database: .private, capabilities: [.fetchChanges, .atomic], origin: model.origin)],
            recordTypes: recordTypes, origin: model.origin)
        schema.isPartial = true
        schema.coreDataModel = model
        schema.coreDataConfiguration = configuration
        return schema
    }

    /// Adds `field` to `type` unless a field of its name is there (`names`: those of `type`).
    /// A static function of `inout` values, not a local one: a local function that captured
    /// the type list made every access to it a checked one (`swift_beginAccess`).
    private static func add(_ field: consuming Field, to type: inout RecordType, names: inout NameSet) {
        if names.insert(field.name) { type.fields.append(field) }
    }

    /// `CD_moveReceipt`: written when a record moves between stores or zones; the
    /// Done-and-done export has it on every CD_ type, the Dispatch export on none, so its
    /// absence is not a difference.
    static func moveReceipt(_ origin: Origin) -> Field {
        var f = Field(name: "CD_moveReceipt", type: FieldType(.bytes), indexes: indexes(.bytes), origin: origin)
        f.mayBeAbsent = true
        return f
    }
}
