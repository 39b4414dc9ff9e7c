import Foundation
import SwiftData
import CoreLocation

/// Inferred types, a subclass model, #Unique and a local-only model.
@Model class Item {
    var id = UUID()
    var name = ""
    var count = 0
    var price = 1.5
    var isOpen = false
    var added = Date()
    var unit: Unit = Unit.gram
    var coordinate: CLLocationCoordinate2D?
    var shelf: Shelf?
    init() {}
}

@Model final class Spice: Item {
    var heat: Int = 0
    override init() { super.init() }
}

@Model final class Shelf {
    #Unique<Shelf>([\.label])
    var label: String = ""
    var items: [Item]? = []
    init() {}
}

/// Kept on the device only.
@Model final class SearchHistory {
    var query: String
    init(query: String) { self.query = query }
}

enum Unit: String, Codable { case gram, piece }

enum Store {
    static func container() throws -> ModelContainer {
        let synced = ModelConfiguration("Pantry", schema: Schema([Item.self, Spice.self, Shelf.self]), cloudKitDatabase: .private("iCloud.com.example.Pantry"))
        let local = ModelConfiguration("Local", schema: Store.localSchema, cloudKitDatabase: .none)
        return try ModelContainer(for: Item.self, Spice.self, Shelf.self, SearchHistory.self, configurations: synced, local)
    }

    /// The local store's models, named through a static property (as real apps do).
    static var localSchema: Schema { Schema([SearchHistory.self]) }
}
