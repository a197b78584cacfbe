import CCurlOnDemand
import Foundation
import XCTest

/// avcapture carries the libcurl functions Foundation's URL loading calls, and loads libcurl on the
/// first call (Sources/CCurlOnDemand), so that no command loads it and its libraries at start
/// (scripts/install-check.sh checks the installed binary does not). Each function answers as
/// libcurl does: the arguments reach the library, pointers and words alike, and its answers come
/// back.
final class URLLoadingTests: XCTestCase {
    // libcurl's numbers (curl/curl.h, curl/urlapi.h).
    private let curlOptionVerbose: Int32 = 41, curlOptionPrivate: Int32 = 10103, curlInfoPrivate: Int32 = 0x100015
    private let curlUnknownOption: Int32 = 48, curlCouldNotConnect: Int32 = 7, curlURLPartURL: Int32 = 0, curlURLPartHost: Int32 = 5

    func testLibcurlIsLoadedOnTheFirstCallAndAnswersThroughTheShim() throws {
        let version = String(cString: try XCTUnwrap(curl_version()))
        XCTAssertTrue(version.hasPrefix("libcurl/"), version)
        XCTAssertEqual(ccod_state(), 1, "libcurl loaded by the shim")
        XCTAssertEqual(String(cString: curl_easy_strerror(curlCouldNotConnect)), "Couldn't connect to server")

        let easy = try XCTUnwrap(curl_easy_init())
        defer { curl_easy_cleanup(easy) }
        // A word (a long) and a pointer through the variadic setter, read back through the getter.
        XCTAssertEqual(ccod_easy_setopt(easy, curlOptionVerbose, nil), 0)
        XCTAssertEqual(ccod_easy_setopt(easy, 999_999, nil), curlUnknownOption, "libcurl's own refusal")
        let marker = UnsafeMutableRawPointer(bitPattern: 0x1234_5678)
        XCTAssertEqual(ccod_easy_setopt(easy, curlOptionPrivate, marker), 0)
        var readBack: UnsafeMutableRawPointer?
        XCTAssertEqual(withUnsafeMutablePointer(to: &readBack) { ccod_easy_getinfo(easy, curlInfoPrivate, $0) }, 0)
        XCTAssertEqual(readBack, marker)

        let url = try XCTUnwrap(curl_url())
        XCTAssertEqual(curl_url_set(url, curlURLPartURL, "http://example.com:8080/a?b", 0), 0)
        var host: UnsafeMutablePointer<CChar>?
        XCTAssertEqual(curl_url_get(url, curlURLPartHost, &host, 0), 0)
        XCTAssertEqual(host.map { String(cString: $0) }, "example.com")
        curl_free(host)

        let list = curl_slist_append(curl_slist_append(nil, "Accept: */*"), "X-Test: 1")
        XCTAssertNotNil(list)
        curl_slist_free_all(list)

        let multi = try XCTUnwrap(curl_multi_init())
        XCTAssertEqual(curl_multi_add_handle(multi, easy), 0)
        XCTAssertEqual(curl_multi_remove_handle(multi, easy), 0)
        XCTAssertEqual(curl_multi_cleanup(multi), 0)
    }
}
