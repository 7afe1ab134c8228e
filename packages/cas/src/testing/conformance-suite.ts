import { afterEach, beforeEach, describe } from "bun:test";
import type { Store } from "../store.ts";
import { describeBranchConformance } from "./branch-conformance.ts";
import { describeChainConformance } from "./chain-conformance.ts";
import { describeChangeFeedConformance } from "./change-feed-conformance.ts";
import { describeEvalReportConformance } from "./eval-report-conformance.ts";
import { describeLeaseConformance } from "./lease-conformance.ts";
import { describeObjectStoreConformance } from "./object-store-conformance.ts";
import { describeScheduleConformance } from "./schedule-conformance.ts";
import { describeSearchAndOutputConformance } from "./search-and-output-conformance.ts";
import { describeThreadConformance } from "./thread-conformance.ts";

/** A fresh, empty store for one test, and how to dispose of it (close connections, remove temp dirs). */
export interface StoreFixture {
  store: Store;
  cleanup: () => Promise<void>;
  /**
   * Opens another store on the same data (the same home, the same schema), as another process would;
   * the caller closes it. Absent for a backend whose data one store alone holds (memory).
   */
  openAgain?: () => Promise<Store>;
}

/** The fixture of the current test; only valid inside `it` bodies. */
export type CurrentFixture = () => StoreFixture;

/** Gives each test the store of the current test; only valid inside `it` bodies. */
export type CurrentStore = () => Store;

/**
 * Registers the bun:test blocks every backend must pass: the whole Store interface, through
 * the interface only, one file per concept of the ref store (threads, eval reports, leases and
 * claims, chain caches, branches, change feed, schedules), so the same suite runs against memory, files + SQLite and later
 * PostgreSQL. Each test gets a fresh store from `createStore`.
 */
export function runStoreConformanceSuite(name: string, createStore: () => Promise<StoreFixture>): void {
  describe(`${name} store conformance`, () => {
    let fixture: StoreFixture | undefined;
    beforeEach(async () => {
      fixture = await createStore();
    });
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });
    const current: CurrentStore = () => {
      if (fixture === undefined) throw new Error("the conformance store is only available inside a test");
      return fixture.store;
    };
    describeObjectStoreConformance(current);
    describeThreadConformance(current);
    describeEvalReportConformance(current);
    describeLeaseConformance(current);
    describeChainConformance(current);
    describeBranchConformance(current);
    const currentFixture: CurrentFixture = () => {
      if (fixture === undefined) throw new Error("the conformance store is only available inside a test");
      return fixture;
    };
    describeChangeFeedConformance(currentFixture);
    describeScheduleConformance(currentFixture);
    describeSearchAndOutputConformance(currentFixture);
  });
}
