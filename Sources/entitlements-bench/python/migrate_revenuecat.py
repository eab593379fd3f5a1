"""The script a migration engineer writes in ten minutes: RevenueCat JSON Lines -> unified JSON Lines.

Used only by entitlements-bench as the yardstick for `entitlements migrate` (it is not part of the
library and is not byte-identical to it; it does the same work: parse, join entitlements to purchases,
parse and re-format dates, write sorted keys). Usage: python3 migrate_revenuecat.py json|orjson FILE
Prints the wall-clock and CPU seconds spent converting the whole file (output goes to /dev/null).
"""
import sys
import time
from datetime import datetime, timezone

MODE, PATH = sys.argv[1], sys.argv[2]
if MODE == "orjson":
    import orjson
    loads = orjson.loads
    def dumps(value):
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
else:
    import json
    loads = json.loads
    def dumps(value):
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()

NOW = datetime(2025, 9, 15, 10, 0, 0, tzinfo=timezone.utc)


def date(text):
    if text is None:
        return None
    parsed = datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(timezone.utc)
    return parsed.strftime("%Y-%m-%dT%H:%M:%S") + ("." + "%03d" % (parsed.microsecond // 1000) if parsed.microsecond else "") + "Z"


def transaction(purchase, product, is_sub):
    return {"transactionId": purchase.get("store_transaction_id"), "originalTransactionId": None,
            "productId": product, "type": "subscriptionRenewed" if is_sub else "nonConsumablePurchase",
            "transactionDate": date(purchase["purchase_date"]), "expirationDate": date(purchase.get("expires_date")),
            "revocationDate": date(purchase.get("refunded_at")),
            "environment": "sandbox" if purchase["is_sandbox"] else "production",
            "ownershipType": "purchased", "offerCode": None, "store": purchase.get("store")}


def convert(record):
    app_user_id = None
    if "response" in record:
        app_user_id = record.get("appUserId")
        record = record["response"]
    sub = record["subscriber"]
    purchases = {key: (value, True) for key, value in sub["subscriptions"].items()}
    for key, values in sub["non_subscriptions"].items():
        if values:
            purchases[key] = (values[-1], False)
    entitlements = {}
    for name, ent in sub["entitlements"].items():
        joined = purchases.get(ent["product_identifier"])
        if joined is None:
            continue
        purchase, is_sub = joined
        expires = date(ent["expires_date"])
        entitlements[name] = {
            "id": name, "isActive": expires is None or expires >= date(NOW.isoformat()),
            "productId": ent["product_identifier"], "productPlanId": purchase.get("product_plan_identifier"),
            "renewState": "willRenew" if is_sub else "nonRenewable", "willRenew": is_sub,
            "periodType": purchase.get("period_type", "normal"), "store": purchase.get("store"),
            "storeRaw": purchase.get("store"), "isSandbox": purchase["is_sandbox"], "grantType": "purchase",
            "ownershipType": "purchased", "originalPurchaseDate": date(purchase.get("original_purchase_date")),
            "firstPurchaseDate": None, "latestPurchaseDate": date(ent["purchase_date"]), "trialStartDate": None,
            "expirationDate": expires, "gracePeriodExpirationDate": date(ent.get("grace_period_expires_date")),
            "unsubscribeDetectedAt": date(purchase.get("unsubscribe_detected_at")),
            "billingIssueDetectedAt": date(purchase.get("billing_issues_detected_at")),
            "refundedAt": date(purchase.get("refunded_at")), "renewsCount": None, "lastActivatedOfferCode": None,
            "transactions": [transaction(purchase, ent["product_identifier"], is_sub)]}
    one_time = [transaction(p, key, False) for key, values in sub["non_subscriptions"].items() for p in values]
    one_time.sort(key=lambda t: t["transactionDate"])
    return {"schemaVersion": 1, "provider": "revenuecat", "appUserId": app_user_id or sub["original_app_user_id"],
            "originalAppUserId": sub["original_app_user_id"], "requestDate": date(record["request_date"]),
            "evaluatedAt": "2025-09-15T10:00:00Z", "firstSeen": date(sub["first_seen"]),
            "managementUrl": sub.get("management_url"),
            "originalApplicationVersion": sub.get("original_application_version"),
            "originalPurchaseDate": date(sub.get("original_purchase_date")), "entitlements": entitlements,
            "activeEntitlementIds": sorted(k for k, v in entitlements.items() if v["isActive"]),
            "nonSubscriptionTransactions": one_time}


start = time.perf_counter()
cpu_start = time.process_time()
with open(PATH, "rb") as source, open("/dev/null", "wb") as sink:
    for line in source:
        if line.strip():
            sink.write(dumps(convert(loads(line))) + b"\n")
print("%.6f %.6f" % (time.perf_counter() - start, time.process_time() - cpu_start))
