/**
 * This file was generated from openapi/petstore.openapi.json by tools/openapi (npm run openapi).
 * Do not make direct changes to the file.
 */

import type { Int64Locations } from '../lib/exact-json';

/** Where response bodies hold int64 values, which the client reads as bigint. */
export const int64Locations: Int64Locations = {
  "schemas": {
    "Pet": {
      "properties": {
        "id": "int64",
        "categoryId": "int64"
      }
    }
  },
  "responses": {
    "GET /pets": {
      "200": {
        "items": {
          "$ref": "Pet"
        }
      }
    },
    "POST /pets": {
      "201": {
        "$ref": "Pet"
      }
    },
    "GET /pets/{petId}": {
      "200": {
        "$ref": "Pet"
      }
    }
  }
};
