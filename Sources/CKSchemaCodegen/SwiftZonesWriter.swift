import CKSchemaModel

/// The schema-dependent part of the shared file: `Zones` and `Subscriptions`.
enum SwiftZonesWriter {
    static func text(schema: Schema, plan: NamePlan, access: String) -> String {
        let out = SwiftText()
        out.blank()
        out.line("extension \(plan.namespace) {")
        out.indent {
            out.line("/// The record zones of the schema.")
            out.line("\(access)enum Zones {")
            out.indent {
                out.line("/// The default zone: every database has one, and it has no capabilities.")
                out.line("\(access)struct Default: Zone {")
                out.indent {
                    out.line("\(access)let zoneID: CKRecordZone.ID")
                    out.blank()
                    out.line("/// The current user's default zone.")
                    out.line("\(access)init() {")
                    out.line("  zoneID = CKRecordZone.ID(")
                    out.line("    zoneName: CKRecordZone.ID.defaultZoneName, ownerName: CKCurrentUserDefaultName)")
                    out.line("}")
                }
                out.line("}")
                for zone in schema.zones where zone.name != Zone.defaultZoneName {
                    out.blank()
                    write(zone, plan.zones[zone.name] ?? zone.name, out, access)
                }
            }
            out.line("}")
            out.blank()
            subscriptions(schema, plan, out, access)
        }
        out.line("}")
        return out.text
    }

    private static func write(_ zone: Zone, _ swift: String, _ out: SwiftText, _ access: String) {
        let caps = ZoneCapability.allCases.filter(zone.capabilities.contains)
        let capsText = caps.isEmpty ? "no capabilities" : caps.map(\.rawValue).joined(separator: ", ")
        out.line("/// The zone `\(SwiftNames.comment(zone.name))` (\(zone.database.rawValue) database): \(capsText).")
        out.line("\(access)struct \(SwiftNames.spelled(swift)): Zone {")
        out.indent {
            out.line("/// The zone's name.")
            out.line("\(access)static let name = \(SwiftNames.literal(zone.name))")
            out.blank()
            out.line("/// What the zone can do.")
            out.line("\(access)static var capabilities: CKRecordZone.Capabilities {")
            out.line("  [\(caps.map { "." + $0.rawValue }.joined(separator: ", "))]")
            out.line("}")
            out.blank()
            out.line("/// The database the zone is in.")
            out.line("\(access)static var databaseScope: CKDatabase.Scope { .\(zone.database.rawValue) }")
            out.blank()
            out.line("\(access)let zoneID: CKRecordZone.ID")
            out.blank()
            out.line("/// The zone of `ownerName`: the current user's, or a sharer's.")
            out.line("\(access)init(ownerName: String = CKCurrentUserDefaultName) {")
            out.line("  zoneID = CKRecordZone.ID(zoneName: Self.name, ownerName: ownerName)")
            out.line("}")
            out.blank()
            out.line("/// The zone to save, to create it.")
            out.line("\(access)func makeZone() -> CKRecordZone { CKRecordZone(zoneID: zoneID) }")
            if zone.capabilities.contains(.fetchChanges) {
                // CKFetchRecordZoneChangesOperation needs a zone with fetchChanges (CKRecordZone.Capabilities.fetchChanges).
                out.blank()
                out.line("/// The changes in the zone since `token` (nil: every record).")
                out.line("\(access)func fetchChanges(")
                out.line("  since token: CKServerChangeToken?, desiredKeys: [CKRecord.FieldKey]? = nil")
                out.line(") -> CKFetchRecordZoneChangesOperation {")
                out.line("  let configuration = CKFetchRecordZoneChangesOperation.ZoneConfiguration(")
                out.line("    previousServerChangeToken: token, resultsLimit: nil, desiredKeys: desiredKeys)")
                out.line("  return CKFetchRecordZoneChangesOperation(")
                out.line("    recordZoneIDs: [zoneID], configurationsByRecordZoneID: [zoneID: configuration])")
                out.line("}")
            }
        }
        out.line("}")
    }

    private static func subscriptions(_ schema: Schema, _ plan: NamePlan, _ out: SwiftText, _ access: String) {
        out.line("/// The subscriptions of the schema, each made ready to save.")
        out.line("\(access)enum Subscriptions {")
        out.indent {
            for (i, s) in schema.subscriptions.enumerated() {
                if i > 0 { out.blank() }
                write(s, schema, plan, out, access)
            }
        }
        out.line("}")
    }

    private static func write(_ s: Subscription, _ schema: Schema, _ plan: NamePlan, _ out: SwiftText, _ access: String) {
        let name = SwiftNames.spelled(SwiftNames.camelCased(s.id))
        let type = s.recordType.flatMap { schema.recordType(named: $0) }
        let typeSwift = type.flatMap { t in schema.recordTypes.firstIndex(of: t).map { plan.types[$0].swiftName } }
        out.line("/// The \(s.kind.rawValue) subscription `\(SwiftNames.comment(s.id))` (\(s.database.rawValue) database).")
        var parameter = ""
        if s.kind != .database, let zone = s.zone ?? (s.kind == .zone ? Zone.defaultZoneName : nil) {
            let zoneType = plan.zoneType(zone)
            parameter = "in zone: \(zoneType) = \(zoneType)()"
        }
        let result = s.kind == .query ? "CKQuerySubscription" : s.kind == .zone ? "CKRecordZoneSubscription" : "CKDatabaseSubscription"
        out.function("\(access)static func \(name)", parameter.isEmpty ? [] : [parameter], result)
        out.indent {
            let id = SwiftNames.literal(s.id)
            switch s.kind {
            case .query:
                let options = Subscription.Event.allCases.filter(s.firesOn.contains).map {
                    switch $0 { case .create: ".firesOnRecordCreation"; case .update: ".firesOnRecordUpdate"; case .delete: ".firesOnRecordDeletion" }
                }
                out.line("let subscription = CKQuerySubscription(")
                out.line("  recordType: \(SwiftNames.literal(s.recordType ?? "")),")
                out.line("  predicate: NSPredicate(format: \(SwiftNames.predicateFormat(s.predicate ?? "TRUEPREDICATE"))),")
                out.line("  subscriptionID: \(id),")
                out.line("  options: [\(options.joined(separator: ", "))]")
                out.line(")")
                if !parameter.isEmpty { out.line("subscription.zoneID = zone.zoneID") }
            case .zone:
                out.call("let subscription = CKRecordZoneSubscription", ["zoneID: zone.zoneID", "subscriptionID: \(id)"])
                if let t = s.recordType { out.line("subscription.recordType = \(SwiftNames.literal(t))") }
            case .database:
                out.call("let subscription = CKDatabaseSubscription", ["subscriptionID: \(id)"])
                if let t = s.recordType { out.line("subscription.recordType = \(SwiftNames.literal(t))") }
            }
            out.line("let info = CKSubscription.NotificationInfo()")
            out.line("info.shouldSendContentAvailable = true")
            if !s.desiredKeys.isEmpty {
                if let typeSwift, let index = schema.recordTypes.firstIndex(where: { $0.name == s.recordType }),
                   let keys = typedKeys(s.desiredKeys, type, plan.types[index]) {
                    let me = SwiftNames.spelled(typeSwift)
                    out.call("info.desiredKeys = \(me).desiredKeys", keys.map { "\(me).Key.\($0)" })
                } else {
                    out.line("info.desiredKeys = [\(s.desiredKeys.map(SwiftNames.literal).joined(separator: ", "))]")
                }
            }
            out.line("subscription.notificationInfo = info")
            out.line("return subscription")
        }
        out.line("}")
    }

    /// The keys' Swift names when the typed `desiredKeys` takes them all (one to three plain
    /// text, non-asset custom fields), else nil.
    private static func typedKeys(_ keys: [String], _ type: RecordType?, _ names: NamePlan.TypeNames) -> [String]? {
        guard let type, (1...3).contains(keys.count) else { return nil }
        var out: [String] = []
        for key in keys {
            guard let i = type.fields.firstIndex(where: { $0.name == key }) else { return nil }
            let f = type.fields[i]
            guard !f.isEncrypted, f.type.primitive != .asset, !f.isDeprecated else { return nil }
            out.append(SwiftNames.spelled(names.fields[i]))
        }
        return out
    }
}
