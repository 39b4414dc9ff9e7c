import SwiftData

@Model final class Broken {
    var name: String = "never closed
    init() {}
}
