// A mongosh session against the server's Mongo endpoint; prints what it saw as one JSON line (read by MongoShellTest).
const shop = db.getSiblingDB('shop');
shop.orders.drop();
shop.orders.insertMany([
  {_id: 'C12345-I1', customer: 'C12345', total: 30.5, items: [{sku: 'a', qty: 2}]},
  {_id: 'C12345-I2', customer: 'C12345', total: 12, items: [{sku: 'b', qty: 1}]},
  {_id: 'C99-I1', customer: 'C99', total: 7, items: []},
]);
const r = {};
r.version = db.version();
r.count = shop.orders.countDocuments({customer: 'C12345'});
r.prefix = shop.orders.find({_id: /^C12345-/}).sort({_id: 1}).toArray().map(d => d._id);
shop.orders.updateOne({_id: 'C99-I1'}, {$push: {items: {sku: 'c', qty: 3}}, $inc: {total: 3}});
r.updated = shop.orders.findOne({_id: 'C99-I1'});
r.byElement = shop.orders.find({'items.sku': 'c'}).toArray().map(d => d._id);
r.totals = shop.orders.aggregate([{$group: {_id: '$customer', total: {$sum: '$total'}}}, {$sort: {_id: 1}}]).toArray();
r.index = shop.orders.createIndex({customer: 1});
r.indexes = shop.orders.getIndexes().map(i => i.name).sort();
try {
  shop.orders.insertOne({_id: 'C99-I1'});
  r.duplicate = 'no error';
} catch (e) {
  r.duplicate = e.code;
}
try {
  shop.runCommand({noSuchCommand: 1});
  r.unknown = 'no error';
} catch (e) {
  r.unknown = e.code;
}
r.collections = shop.getCollectionNames();
print(JSON.stringify(r));
