import Foundation
import Testing

@testable import APIKit

@Suite("RetryPolicy: decisions, backoff and Retry-After, without a network")
struct RetryPolicyTests {
    static let url = URL(string: "https://api.example.test/v1/x")!

    static func response(_ status: Int, headers: [String: String] = [:]) -> Result<TransportResponse, any Error> {
        .success(
            TransportResponse(
                data: Data(),
                urlResponse: HTTPURLResponse(
                    url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!))
    }

    static let noJitter = RetryPolicy(backoff: .init(baseDelay: 1, multiplier: 2, maxDelay: 5, jitter: false))

    @Test(
        "retries the transient status codes of idempotent methods, and nothing else",
        arguments: [408, 429, 500, 502, 503, 504])
    func transientStatus(status: Int) {
        let policy = Self.noJitter
        #expect(policy.retryDelay(after: Self.response(status), method: .get, attempt: 1) == 1)
        #expect(policy.retryDelay(after: Self.response(status), method: .put, attempt: 1) == 1)
        #expect(policy.retryDelay(after: Self.response(status), method: .post, attempt: 1) == nil)
        #expect(policy.retryDelay(after: Self.response(status), method: .patch, attempt: 1) == nil)
    }

    @Test("does not retry success, client errors or 501", arguments: [200, 204, 301, 400, 401, 404, 422, 501])
    func otherStatus(status: Int) {
        #expect(Self.noJitter.retryDelay(after: Self.response(status), method: .get, attempt: 1) == nil)
    }

    @Test("retries transient transport failures, never a cancellation or other errors")
    func transportFailures() {
        let policy = Self.noJitter
        for code in [URLError.Code.timedOut, .networkConnectionLost, .cannotConnectToHost, .notConnectedToInternet] {
            #expect(policy.retryDelay(after: .failure(URLError(code)), method: .get, attempt: 1) == 1, "\(code)")
        }
        #expect(policy.retryDelay(after: .failure(URLError(.cancelled)), method: .get, attempt: 1) == nil)
        #expect(policy.retryDelay(after: .failure(URLError(.badURL)), method: .get, attempt: 1) == nil)
        #expect(policy.retryDelay(after: .failure(ProbeFailure(stage: "x")), method: .get, attempt: 1) == nil)
        let nsError = NSError(domain: NSURLErrorDomain, code: URLError.Code.timedOut.rawValue)
        #expect(policy.retryDelay(after: .failure(nsError), method: .get, attempt: 1) == 1)
        var listsCancelled = policy
        listsCancelled.retryableURLErrorCodes.insert(.cancelled)
        #expect(listsCancelled.retryDelay(after: .failure(URLError(.cancelled)), method: .get, attempt: 1) == nil)
    }

    @Test("zero backoff and maxRetryAfter 0 retry without a delay, also after Retry-After: 60")
    func zeroDelayPolicy() {
        let policy = RetryPolicy(backoff: .init(baseDelay: 0), maxRetryAfter: 0)
        for attempt in [1, 2] {
            #expect(policy.retryDelay(after: Self.response(503), method: .get, attempt: attempt) == 0)
            let retryAfter = Self.response(429, headers: ["Retry-After": "60"])
            #expect(policy.retryDelay(after: retryAfter, method: .get, attempt: attempt) == 0)
        }
        #expect(policy.retryDelay(after: Self.response(503), method: .get, attempt: 3) == nil)
    }

    @Test("'never retry' reads the same where a RetryPolicy? is expected: .never is a policy, not Optional.none")
    func neverInAnOptionalContext() {
        struct Payment: Request, RequestConfiguration {
            var base: URL { URL(string: "https://api.example.test")! }
            var path: String { "pay" }
            var method: HTTPMethod { .post }
            var parser: StringParser { StringParser() }
            var retryPolicy: RetryPolicy? { .never }
        }
        #expect(Payment().retryPolicy?.maxAttempts == 1)
        #expect(TextRequest().retryPolicy == nil, "no policy of its own: the session's")
        #expect(Session().retryPolicy.maxAttempts == 1, "a session never retries unless told to")
    }

    @Test("maxAttempts bounds the attempts, the first included")
    func bounded() {
        let policy = Self.noJitter  // 3 attempts
        #expect(policy.retryDelay(after: Self.response(503), method: .get, attempt: 2) == 2)
        #expect(policy.retryDelay(after: Self.response(503), method: .get, attempt: 3) == nil)
        #expect(RetryPolicy.never.retryDelay(after: Self.response(503), method: .get, attempt: 1) == nil)
        #expect(RetryPolicy.never.maxAttempts == 1)
        #expect(RetryPolicy().maxAttempts == 3)
    }

    @Test("exponential backoff, capped by maxDelay; full jitter scales it by the random number")
    func backoff() {
        let backoff = RetryPolicy.Backoff(baseDelay: 0.5, multiplier: 3, maxDelay: 10, jitter: false)
        #expect((1...5).map { backoff.delay(beforeRetry: $0) } == [0.5, 1.5, 4.5, 10, 10])
        let jittered = RetryPolicy.Backoff(baseDelay: 0.5, multiplier: 3, maxDelay: 10, jitter: true)
        #expect(jittered.delay(beforeRetry: 3, random: 0) == 0)
        #expect(jittered.delay(beforeRetry: 3, random: 0.5) == 2.25)
        #expect(jittered.delay(beforeRetry: 3, random: 1) == 4.5)
        for _ in 0..<100 {
            let delay = jittered.delay(beforeRetry: 2)
            #expect(delay >= 0 && delay <= 1.5)
        }
        let huge = RetryPolicy.Backoff(baseDelay: 1, multiplier: 1e300, maxDelay: 7, jitter: false)
        #expect(huge.delay(beforeRetry: 400) == 7)
        let none = RetryPolicy.Backoff(baseDelay: 0, multiplier: 1e300, maxDelay: 7, jitter: false)
        #expect((1...4).map { none.delay(beforeRetry: $0) } == [0, 0, 0, 0], "0 × ∞ is no delay, not maxDelay")
    }

    @Test("no wait is longer than 10⁹ s, whatever the header or the policy's caps")
    func longestWait() {
        var policy = RetryPolicy(backoff: .init(baseDelay: 1e300, maxDelay: 1e300, jitter: false))
        policy.maxRetryAfter = .greatestFiniteMagnitude
        #expect(policy.retryDelay(after: Self.response(503), method: .get, attempt: 1) == 1e9)
        for digits in [22, 400] {
            let header = "9" + String(repeating: "0", count: digits)
            let response = Self.response(503, headers: ["Retry-After": header])
            #expect(policy.retryDelay(after: response, method: .get, attempt: 1) == 1e9, "\(digits + 1) digits")
        }
    }

    @Test("Retry-After in seconds or as an HTTP date wins over the backoff, capped by maxRetryAfter")
    func retryAfter() {
        var policy = Self.noJitter
        policy.maxRetryAfter = 120
        #expect(
            policy.retryDelay(after: Self.response(503, headers: ["Retry-After": "7"]), method: .get, attempt: 1) == 7)
        #expect(
            policy.retryDelay(after: Self.response(429, headers: ["retry-after": " 0 "]), method: .get, attempt: 1) == 0
        )
        #expect(
            policy.retryDelay(after: Self.response(503, headers: ["Retry-After": "3600"]), method: .get, attempt: 1)
                == 120)
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        let imf = Self.response(503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:07 GMT"])
        #expect(policy.retryDelay(after: imf, method: .get, attempt: 1, now: now) == 30)
        let rfc850 = Self.response(503, headers: ["Retry-After": "Sunday, 06-Nov-94 08:50:37 GMT"])
        #expect(policy.retryDelay(after: rfc850, method: .get, attempt: 1, now: now) == 60)
        let asctime = Self.response(503, headers: ["Retry-After": "Sun Nov  6 08:49:47 1994"])
        #expect(policy.retryDelay(after: asctime, method: .get, attempt: 1, now: now) == 10)
        let past = Self.response(503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:00:00 GMT"])
        #expect(policy.retryDelay(after: past, method: .get, attempt: 1, now: now) == 0)
        // measured from the response's own Date, whatever this device's clock says
        let dated = Self.response(
            503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:51:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(policy.retryDelay(after: dated, method: .get, attempt: 1, now: now.addingTimeInterval(300)) == 120)
        #expect(policy.retryDelay(after: dated, method: .get, attempt: 1, now: now.addingTimeInterval(-300)) == 120)
        let undated = Self.response(503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:51:37 GMT", "Date": "soon"])
        #expect(policy.retryDelay(after: undated, method: .get, attempt: 1, now: now) == 120, "an unreadable Date: now")
        let garbage = Self.response(503, headers: ["Retry-After": "soon"])
        #expect(policy.retryDelay(after: garbage, method: .get, attempt: 1, now: now) == 1, "unreadable: the backoff")
        #expect(
            policy.retryDelay(after: Self.response(404, headers: ["Retry-After": "1"]), method: .get, attempt: 1) == nil
        )
    }

    @Test("the sets decide alone: a listed status is retried, a success included, for a listed method only")
    func setsDecide() {
        let policy = RetryPolicy(
            maxAttempts: 2, retryableMethods: [.post], retryableStatusCodes: [200],
            backoff: .init(baseDelay: 2, jitter: false))
        #expect(policy.retryDelay(after: Self.response(200), method: .post, attempt: 1) == 2)
        #expect(policy.retryDelay(after: Self.response(200), method: .get, attempt: 1) == nil)
        #expect(policy.retryDelay(after: Self.response(503), method: .post, attempt: 1) == nil)
        #expect(policy.retryDelay(after: Self.response(200), method: .post, attempt: 2) == nil)
        #expect(policy.retryDelay(after: .failure(URLError(.cancelled)), method: .post, attempt: 1) == nil)
    }

    @Test("a policy that cannot be followed is a BuildError naming the member")
    func validation() {
        func reason(_ policy: RetryPolicy) -> String? {
            do {
                try policy.validate()
                return nil
            } catch {
                guard case .invalidRetryPolicy(let reason) = error else { return "other error \(error)" }
                return reason
            }
        }
        #expect(reason(RetryPolicy()) == nil)
        #expect(reason(.never) == nil)
        #expect(reason(RetryPolicy(maxAttempts: 0))?.contains("maxAttempts 0") == true)
        #expect(reason(RetryPolicy(backoff: .init(baseDelay: -1)))?.contains("backoff.baseDelay") == true)
        #expect(reason(RetryPolicy(backoff: .init(multiplier: .nan)))?.contains("backoff.multiplier") == true)
        #expect(reason(RetryPolicy(backoff: .init(maxDelay: .infinity)))?.contains("backoff.maxDelay") == true)
        #expect(reason(RetryPolicy(maxRetryAfter: -5))?.contains("maxRetryAfter") == true)
    }
}
