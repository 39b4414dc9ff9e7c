import CloudKit

final class Engine: CKSyncEngineDelegate {
    var engine: CKSyncEngine!
    var stateSerialization: CKSyncEngine.State.Serialization?

    func start() {
        let container = CKContainer(identifier: "iCloud.com.example.Ships")
        let configuration = CKSyncEngine.Configuration(database: container.publicCloudDatabase, stateSerialization: stateSerialization, delegate: self)
        engine = CKSyncEngine(configuration)
    }

    func queue(_ name: String) {
        let id = CKRecord.ID(recordName: name)
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
    }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        switch event {
        case .stateUpdate(let update):
            let data = try? JSONEncoder().encode(update.stateSerialization)
            UserDefaults.standard.set(data, forKey: "state")
        case .sentRecordZoneChanges(let sent):
            print(sent.savedRecords.count)
        case .fetchedRecordZoneChanges(let fetched):
            for m in fetched.modifications { print(m.record.recordID) }
        default:
            break
        }
    }
}
