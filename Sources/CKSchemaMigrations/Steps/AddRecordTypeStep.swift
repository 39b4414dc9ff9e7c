import CKSchemaDiagnostics
import CKSchemaModel
import CKSchemaStore
import CKSchemaYAML

/// `addRecordType: { name, ...a record type as a schema file writes it }`.
struct AddRecordTypeStep: MigrationStepKind {
    static let key = "addRecordType"
    static let keys = ["name"] + SchemaDecoder.recordTypeKeys
    var recordType: RecordType

    static func parse(_ args: inout StepArguments) -> Self? {
        guard let name = args.string("name"), let nameNode = args.value("name") else { return nil }
        args.cloudKitName(name, nameNode)
        // The rest of the mapping is a record type as a schema file writes it.
        var body: [YAMLPair] = []
        var decoder = SchemaDecoder(file: args.file)
        for p in args.pairs where p.name != "name" {
            args.markUsed(p.name)
            if SchemaDecoder.recordTypeKeys.contains(p.name) {
                body.append(p)
                if p.name == "fields" { for f in p.value.mapping ?? [] { args.cloudKitName(f.name, f.key, of: name) } }
                continue
            }
            decoder.d.report(InputRules.unknownKey, "unknown key '\(p.name)' in `addRecordType`\(Suggest.phrase(for: p.name, in: ["name"] + SchemaDecoder.recordTypeKeys))",
                             at: p.key, fix: "allowed keys: name, " + SchemaDecoder.recordTypeKeys.joined(separator: ", "))
        }
        let t = decoder.recordType(name: name, at: nameNode, pairs: body)
        return args.adopt(decoder) ? Self(recordType: t) : nil
    }

    var recordTypeName: String? { recordType.name }
    var summary: String { "\(recordType.name) (\(recordType.fields.count) field\(recordType.fields.count == 1 ? "" : "s"))" }

    var yaml: String {
        let t = recordType, q = MigrationWriter.quote
        var out = "\n      name: \(q(t.name))\n"
        if let z = t.zone { out += "      zone: \(q(z))\n" }
        if let d = t.database { out += "      database: \(d.rawValue)\n" }
        if let d = t.description { out += "      description: \(q(d))\n" }
        if t.isDeprecated { out += "      deprecated: true\n" }
        if !t.requiredCapabilities.isEmpty { out += "      requires: [" + t.requiredCapabilities.sorted().map(\.rawValue).joined(separator: ", ") + "]\n" }
        if !t.fields.isEmpty {
            out += "      fields:\n"
            for f in t.fields { out += "        \(q(f.name)): { \(MigrationWriter.fieldSpec(f)) }\n" }
        }
        let system = t.systemIndexes.filter { !$0.value.isEmpty }.sorted { $0.key.rawValue < $1.key.rawValue }
        if !system.isEmpty {
            out += "      system:\n"
            for (k, v) in system { out += "        \(k.rawValue): [" + v.kinds.map(\.rawValue).joined(separator: ", ") + "]\n" }
        }
        if !t.grants.isEmpty { out += "      grants:\n" + MigrationWriter.grants(t.grants, indent: "        ") }
        return out
    }

    func apply(to schema: inout Schema, _ c: StepContext) throws(InputError) {
        let t = recordType
        guard schema.recordType(named: t.name) == nil else {
            throw c.fail(StoreRules.badTarget, "record type '\(t.name)' already exists", fix: "use `addField` to add fields to it")
        }
        try c.checkZone(t.zone, in: schema)
        if let v = CloudKitRules.recordTypeNameViolation(t.name) { throw c.fail(v) }
        try c.checkRoles(t.grants, in: schema)
        var seen = Set<String>()
        for f in t.fields {
            guard seen.insert(f.name).inserted else { throw c.fail(StoreRules.badTarget, "field '\(f.name)' appears twice in '\(t.name)'") }
            try c.check(f, in: t, schema: schema)
        }
        schema.recordTypes.append(t)
    }
}

extension MigrationStepKind where Self == AddRecordTypeStep {
    static func addRecordType(_ t: RecordType) -> Self { AddRecordTypeStep(recordType: t) }
}
