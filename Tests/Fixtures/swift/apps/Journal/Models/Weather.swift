enum Weather: Int, Codable {
    case sunny, rainy
}
