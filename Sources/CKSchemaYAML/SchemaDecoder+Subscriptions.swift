import CKSchemaDiagnostics
import CKSchemaModel

/// The `subscriptions:` section: one mapping per subscription ID (docs/runtime.md).
extension SchemaDecoder {
    mutating func subscription(_ p: YAMLPair) -> Subscription? {
        guard let pairs = d.pairs(p.value, what: "subscription '\(p.name)'") else { return nil }
        guard let typeNode = pairs.first(where: { $0.name == "type" })?.value else {
            d.report(InputRules.missingKey, "subscription '\(p.name)' has no 'type'", at: p.key,
                     fix: "add 'type:' with one of: " + Subscription.Kind.allCases.map(\.rawValue).joined(separator: ", "))
            return nil
        }
        guard let kind = d.enumValue(typeNode, what: "subscription type", as: Subscription.Kind.self) else { return nil }
        var sub = Subscription(id: p.name, kind: kind, origin: Origin(d.location(p.key)))
        let allowed = Subscription.keys(for: kind)
        var sawDatabase = false
        for q in pairs {
            switch q.name {
            case "type": break
            case _ where !allowed.contains(q.name):
                d.report(InputRules.unknownKey, "a \(kind.rawValue) subscription has no '\(q.name)'\(Suggest.phrase(for: q.name, in: allowed))", at: q.key,
                         fix: "keys of a \(kind.rawValue) subscription: " + allowed.joined(separator: ", "))
            case "database":
                sawDatabase = true
                if let db = d.enumValue(q.value, what: "database", as: Database.self) { sub.database = db }
            case "recordType": sub.recordType = d.string(q.value, what: "'recordType'")
            case "predicate":
                sub.predicate = d.string(q.value, what: "'predicate'")
                sub.predicateOrigin = predicateStart(q.value)
            case "firesOn": sub.firesOn = d.enumSet(q.value, what: "firesOn event", as: Subscription.Event.self)
            case "desiredKeys": sub.desiredKeys = d.stringList(q.value, what: "'desiredKeys'").map(\.0)
            case "zone": sub.zone = d.string(q.value, what: "'zone'")
            default: break
            }
        }
        if !sawDatabase {
            d.report(InputRules.missingKey, "subscription '\(p.name)' has no 'database'", at: p.key,
                     fix: "add 'database:' with one of: private, shared, public (a subscription lives in one database)")
        }
        return sub
    }

    /// Where a predicate's text starts: after the quote of a quoted scalar. Columns inside a
    /// double-quoted scalar with escapes are off by the escapes' extra characters.
    func predicateStart(_ node: YAMLNode) -> Origin {
        var loc = d.location(node)
        switch node.style {
        case .singleQuoted, .doubleQuoted: loc.column += 1
        case .plain: break
        case .literal, .folded: return Origin(loc)
        }
        return Origin(loc)
    }
}
