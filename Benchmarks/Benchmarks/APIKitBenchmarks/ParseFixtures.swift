// Response bodies for the parse benchmarks: a page of realistic records
// (strings, integers, doubles, booleans, arrays, nested objects), generated
// deterministically — the same bytes in every process and on every machine —
// until the encoded JSON reaches the wanted size.

import APIKit

struct Feed: Codable, Equatable, Sendable {
    struct Geo: Codable, Equatable, Sendable {
        var lat: Double
        var lng: Double
    }

    struct Address: Codable, Equatable, Sendable {
        var street: String
        var city: String
        var zip: String
        var geo: Geo
    }

    struct Stats: Codable, Equatable, Sendable {
        var followers: Int
        var following: Int
        var posts: Int
        var rating: Double
    }

    struct User: Codable, Equatable, Sendable {
        var id: Int
        var username: String
        var email: String
        var displayName: String
        var verified: Bool
        var score: Double
        var createdAt: String
        var tags: [String]
        var address: Address
        var stats: Stats
        var bio: String?
    }

    var page: Int
    var perPage: Int
    var total: Int
    var hasMore: Bool
    var users: [User]
}

/// A small deterministic generator (SplitMix64), so the fixtures never depend on
/// the system's random numbers.
private struct SplitMix64 {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items[int(0...(items.count - 1))]
    }

    /// A double with at most `decimals` decimal places, so its JSON text is short and exact.
    mutating func double(_ range: ClosedRange<Int>, decimals: Int) -> Double {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        return Double(int((range.lowerBound * scale)...(range.upperBound * scale))) / Double(scale)
    }
}

enum ParseFixtures {
    private static let firstNames = [
        "ada", "alan", "grace", "linus", "barbara", "ken", "margaret", "dennis", "frances", "edsger",
    ]
    private static let lastNames = [
        "lovelace", "turing", "hopper", "torvalds", "liskov", "thompson", "hamilton", "ritchie", "allen", "dijkstra",
    ]
    private static let cities = ["Lisbon", "Zürich", "Osaka", "Montréal", "Nairobi", "Oslo", "Austin", "Kraków"]
    private static let streets = [
        "Main St", "Rue de la Paix", "Bahnhofstrasse", "Elm Avenue", "Harbour Road", "Calle Mayor",
    ]
    private static let tagWords = [
        "swift", "linux", "server", "ios", "rust", "databases", "networking", "compilers", "ml", "design",
    ]
    private static let bios: [String?] = [
        nil,
        "Writes compilers for fun and profit.",
        "Coffee → code. Opinions are my own.",
        "Building distributed systems; previously at a \"big\" company.",
        "🏔️ hiker, 📷 photographer, occasional blogger",
    ]

    private static func user(_ index: Int, _ rng: inout SplitMix64) -> Feed.User {
        let first = rng.pick(firstNames)
        let last = rng.pick(lastNames)
        let tagCount = rng.int(1...4)
        return Feed.User(
            id: 10_000 + index,
            username: "\(first)_\(last)\(index)",
            email: "\(first).\(last)\(index)@example.com",
            displayName: "\(first.capitalized) \(last.capitalized)",
            verified: rng.int(0...1) == 1,
            score: rng.double(0...100, decimals: 2),
            createdAt:
                "2024-\(String(format: "%02d", rng.int(1...12)))-\(String(format: "%02d", rng.int(1...28)))T\(String(format: "%02d", rng.int(0...23))):\(String(format: "%02d", rng.int(0...59))):00Z",
            tags: (0..<tagCount).map { _ in rng.pick(tagWords) },
            address: Feed.Address(
                street: "\(rng.int(1...999)) \(rng.pick(streets))",
                city: rng.pick(cities),
                zip: String(rng.int(10_000...99_999)),
                geo: Feed.Geo(lat: rng.double(-90...89, decimals: 4), lng: rng.double(-180...179, decimals: 4))
            ),
            stats: Feed.Stats(
                followers: rng.int(0...250_000),
                following: rng.int(0...2_000),
                posts: rng.int(0...10_000),
                rating: rng.double(0...4, decimals: 1)
            ),
            bio: rng.pick(bios)
        )
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .useDefaultKeys
        return encoder
    }()

    /// The smallest feed whose JSON is at least `bytes` long, and that JSON.
    static func body(atLeast bytes: Int) -> (feed: Feed, data: Data) {
        let users = allUsers(upTo: 1_000)
        func feed(_ count: Int) -> Feed {
            Feed(page: 1, perPage: count, total: count * 7, hasMore: true, users: Array(users.prefix(count)))
        }
        func size(_ count: Int) -> Int { try! encoder.encode(feed(count)).count }
        // Binary search on the user count (only at startup).
        var low = 0
        var high = users.count
        precondition(size(high) >= bytes, "ParseFixtures: \(bytes) bytes needs more than \(high) users")
        while low < high {
            let mid = (low + high) / 2
            if size(mid) >= bytes { high = mid } else { low = mid + 1 }
        }
        let result = feed(low)
        return (result, try! encoder.encode(result))
    }

    /// The same users in the same order for any size: user `i` is always the same.
    private static func allUsers(upTo count: Int) -> [Feed.User] {
        var rng = SplitMix64(state: 0xA11CE)
        return (0..<count).map { user($0, &rng) }
    }

    static let small = body(atLeast: 2 * 1024)
    static let large = body(atLeast: 200 * 1024)
}
