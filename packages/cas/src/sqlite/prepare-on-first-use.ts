import type { Database, SQLQueryBindings, Statement } from "bun:sqlite";

/**
 * The database, whose `query` returns a statement that SQLite compiles when it first runs rather than
 * when it is named. The ref store names every statement its methods use when it opens (about 35), and a
 * command runs a few of them: compiling them all cost every process 1.5 ms of CPU (a step uses a dozen).
 * The statements are the same otherwise (`query` keeps one per SQL text, as before); only `get`, `all`
 * and `run` are offered, which is what the store's methods call.
 */
export function prepareOnFirstUse(database: Database): Database {
  const query = (sql: string) => {
    let statement: Statement | undefined;
    const prepared = () => {
      statement ??= database.query(sql);
      return statement;
    };
    return {
      get: (...bindings: SQLQueryBindings[]) => prepared().get(...bindings),
      all: (...bindings: SQLQueryBindings[]) => prepared().all(...bindings),
      run: (...bindings: SQLQueryBindings[]) => prepared().run(...bindings),
      toString: () => sql,
    } as unknown as Statement;
  };
  return new Proxy(database, {
    get(target, property) {
      if (property === "query") return query;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
