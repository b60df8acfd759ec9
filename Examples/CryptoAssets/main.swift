// Example: a crypto-assets API with grouped endpoints and path keys, written the way the Cryptic API
// seed (000) works.
//
// Cryptic groups the methods of a back end by subject — `CrypticAPI.Assets.all`, `.profile(key)`,
// `.marketData(key)`, `.timeseries(key, option)` — configures a request step by step
// (`.configure { $0.config.parameters["fields"] = ... }`), chooses the queue its completion runs on,
// and gets a task back.
//
// In APIKit each method is a request type nested in its group, and the group offers the same entry
// points as Cryptic's enum cases, so call sites read the same. The asset key is a `@PathSegment` filling
// `{asset}` in the path (percent-encoded as one segment, so a key can never reach another segment or the
// query); the per-case parameter switch becomes each method's `@Query` properties, with a
// comma-separated list strategy for `fields` and a `yyyy-MM-dd` date strategy for the time series.
// `configure { }` is a copy-and-modify step on the request value; `task(on:)` picks the completion
// queue and returns a cancellable `RequestHandle`.
//
// A local httpbin stands in for data.messari.io (`bash scripts/run-examples.sh CryptoAssetsExample`):
// its /anything echoes the URL and the query it received, which the example checks, exiting 1 on any
// difference.
import APIKit

// MARK: - The API and its groups

enum CrypticAPI {
    /// `https://data.messari.io/api/v2` in production; here httpbin's echo under the same path.
    static let base: URL = server.appendingPathComponent("anything/api/v2")

    static let session = Session(defaultHeaders: ["User-Agent": "Cryptic/1.0"])

    /// Messari's dates: `2024-01-31`.
    static let dates = EncodingStrategy(
        dates: .custom { Date.ISO8601FormatStyle(timeZone: .gmt).year().month().day().format($0) })
}

/// What every method of the API shares: the base, GET, and Cryptic's chaining steps.
protocol CrypticMethod: JSONDecodableRequest, RequestConfiguration where Response: Sendable {}

extension CrypticMethod {
    var base: URL { CrypticAPI.base }
    var method: HTTPMethod { .get }
    var configuration: Self { self }

    /// Messari writes dates as `2024-01-31`.
    var encodingStrategy: EncodingStrategy { CrypticAPI.dates }

    /// Cryptic's `configure { }`: a modified copy of the request, for chaining.
    func configure(_ update: (inout Self) -> Void) -> Self {
        var copy = self
        update(&copy)
        return copy
    }

    /// Cryptic's `performCompletionBlock(on:)` + `task { }`: sends the request, calls `completion` on
    /// `queue` (or where the transport calls back when `nil`), and returns the cancellable task.
    @discardableResult
    func task(
        on queue: DispatchQueue? = nil,
        completion: @escaping @Sendable (Result<Response, RequestError>) -> Void
    ) -> RequestHandle {
        var session = CrypticAPI.session
        session.completionQueue = queue
        return self.perform(using: session, completion: completion)
    }
}

extension CrypticAPI {
    /// The assets group: Cryptic's `enum Assets`, one entry point per case.
    enum Assets {
        typealias AssetKey = String

        static var all: All { All() }
        static func profile(_ key: AssetKey) -> Profile { Profile(asset: key) }
        static func marketData(_ key: AssetKey) -> MarketData { MarketData(asset: key) }
        static func timeseries(_ key: AssetKey, _ option: TimeseriesOption) -> Timeseries {
            let interval = option.dateInterval
            return Timeseries(asset: key, start: interval.start, end: interval.end)
        }

        /// `GET /assets`
        struct All: CrypticMethod {
            typealias Response = Echo
            @Query("fields", strategy: .init(arrays: .commaSeparated)) var fields: [String]? = nil
            @Query("limit") var limit: Int? = nil
            var path: String { "assets" }
        }

        /// `GET /assets/{asset}/profile`
        struct Profile: CrypticMethod {
            typealias Response = Echo
            @PathSegment("asset") var asset: AssetKey = ""
            @Query("fields", strategy: .init(arrays: .commaSeparated)) var fields = [
                "symbol", "name", "overview", "background",
            ]
            var path: String { "assets/{asset}/profile" }
        }

        /// `GET /assets/{asset}/metrics/market-data`
        struct MarketData: CrypticMethod {
            typealias Response = Echo
            @PathSegment("asset") var asset: AssetKey = ""
            var path: String { "assets/{asset}/metrics/market-data" }
        }

        /// `GET /assets/{asset}/metrics/price/time-series`
        struct Timeseries: CrypticMethod {
            typealias Response = Echo
            @PathSegment("asset") var asset: AssetKey = ""
            @Query("start") var start = Date()
            @Query("end") var end = Date()
            @Query("interval") var interval = "1d"
            @Query("fields", strategy: .init(arrays: .commaSeparated)) var fields = ["symbol", "values"]
            @Query("columns", strategy: .init(arrays: .commaSeparated)) var columns = ["close"]
            @Query("timestamp-format") var timestampFormat = "unix-seconds"
            var path: String { "assets/{asset}/metrics/price/time-series" }
        }

        /// The period of a time series, as in Cryptic.
        enum TimeseriesOption {
            case day, week, year
            case custom(DateInterval)

            var dateInterval: DateInterval {
                let end = Date()
                let calendar = Calendar(identifier: .gregorian)
                let start: Date?
                switch self {
                case .day: start = calendar.date(byAdding: .day, value: -1, to: end)
                case .week: start = calendar.date(byAdding: .day, value: -7, to: end)
                case .year: start = calendar.date(byAdding: .year, value: -1, to: end)
                case .custom(let interval): return interval
                }
                return DateInterval(start: start ?? end, end: end)
            }
        }
    }

    /// What httpbin answers: the request as it arrived. Against Messari each method would decode
    /// its own payload (`[AssetResponseItem]`, `AssetProfile`, ...).
    struct Echo: Decodable, Sendable {
        var url: String
        var args: [String: String]
        var headers: [String: String]

        var path: String { URL(string: url)?.path ?? "" }
    }
}

// MARK: - Using it

/// The httpbin server, from `APIKIT_HTTPBIN_URL`.
let server: URL = {
    guard let url = ProcessInfo.processInfo.environment["APIKIT_HTTPBIN_URL"].flatMap(URL.init(string:)) else {
        print("Set APIKIT_HTTPBIN_URL to an httpbin server, or run: bash scripts/run-examples.sh CryptoAssetsExample")
        exit(2)
    }
    return url
}()

/// Prints what was shown, or why it was not and exits 1.
func check(_ condition: Bool, _ what: String) {
    guard condition else {
        print("FAIL: \(what)")
        exit(1)
    }
    print("ok: \(what)")
}

/// The queue an app would update its screen on; `onUIQueue` tells whether code runs there.
let ui = DispatchQueue(label: "cryptic.ui")
let uiKey = DispatchSpecificKey<Bool>()
ui.setSpecific(key: uiKey, value: true)

/// Runs `method`'s task with its completion on the UI queue and returns the echo, checking the queue.
func run<Method: CrypticMethod>(_ method: Method) async throws(RequestError) -> Method.Response {
    let (result, onUIQueue) = await withCheckedContinuation { continuation in
        method.task(on: ui) { result in
            continuation.resume(returning: (result, DispatchQueue.getSpecific(key: uiKey) == true))
        }
    }
    check(onUIQueue, "\(Method.self)'s completion ran on the queue it chose")
    return try result.get()
}

let prefix = "/anything/api/v2"

// Cryptic's own example: all assets, configured step by step.
let all = try await run(
    CrypticAPI.Assets.all
        .configure { $0.fields = ["metrics", "symbol", "name"] }
        .configure { $0.limit = 20 }
)
check(all.path == "\(prefix)/assets", "Assets.all went to /assets")
check(
    all.args == ["fields": "metrics,symbol,name", "limit": "20"], "configure { } set fields (comma-separated) and limit"
)
check(all.headers["User-Agent"] == "Cryptic/1.0", "the API's default header arrived")

// Three methods of the group in flight at once, each keyed by an asset in its path.
let week = CrypticAPI.Assets.TimeseriesOption.custom(
    DateInterval(start: Date(timeIntervalSince1970: 1_704_067_200), duration: 6 * 86_400)  // 2024-01-01 ... 2024-01-07
)
async let profile = run(CrypticAPI.Assets.profile("btc"))
async let market = run(CrypticAPI.Assets.marketData("usd-coin"))
async let series = run(CrypticAPI.Assets.timeseries("eth", week))

let (profileEcho, marketEcho, seriesEcho) = try await (profile, market, series)
check(profileEcho.path == "\(prefix)/assets/btc/profile", "profile(\"btc\") put its key in the path")
check(profileEcho.args == ["fields": "symbol,name,overview,background"], "profile asked for its default fields")
check(
    marketEcho.path == "\(prefix)/assets/usd-coin/metrics/market-data",
    "marketData(\"usd-coin\") put its key in the path")
check(
    seriesEcho.path == "\(prefix)/assets/eth/metrics/price/time-series",
    "timeseries(\"eth\", ...) put its key in the path")
check(
    seriesEcho.args == [
        "start": "2024-01-01", "end": "2024-01-07", "interval": "1d", "fields": "symbol,values", "columns": "close",
        "timestamp-format": "unix-seconds",
    ],
    "timeseries sent its dates as yyyy-MM-dd and its other parameters"
)

// The preset periods end now and start where Cryptic's do.
let lastWeek = CrypticAPI.Assets.timeseries("eth", .week)
check(
    abs(lastWeek.end.timeIntervalSince(lastWeek.start) - 7 * 86_400) < 2 * 3600,  // daylight saving shifts a day
    ".week spans seven days"
)

// A path key is one segment whatever it holds: "/" is sent as %2F, it never makes a new segment.
let odd = try CrypticAPI.Assets.profile("wrapped/btc?x").makeURLRequest()
check(
    odd.url?.absoluteString.hasPrefix("\(server.absoluteString)\(prefix)/assets/wrapped%2Fbtc%3Fx/profile?") == true,
    "a key holding / and ? stays in its segment: \(odd.url?.absoluteString ?? "-")"
)

print("CryptoAssets example: all checks passed")
